// This area's operations as plan steps read (services/src/shared/step-words.ts).
import { opt, q, type DescribeStep, type StepNames } from '../shared/step-words.js';

/** A world's name (its content's label), when the arguments give one. */
const labelOf = (a: Record<string, unknown>) => (a.content as { label?: unknown } | undefined)?.label;
const named = (a: Record<string, unknown>) => opt('named', labelOf(a));
const world = (a: Record<string, unknown>, n: StepNames) => n.world(a.worldId);

export const spatialStepWords: Record<string, DescribeStep> = {
  'svc.spatial.list_worlds': () => 'List your worlds',
  'svc.spatial.create_world': (a) =>
    `Create a ${a.visibility === 'private' ? 'private' : 'public'} world${named(a)}`,
  'svc.spatial.read_world': (a, n) => `Read ${world(a, n)}`,
  'svc.spatial.update_world': (a, n) =>
    `Change ${world(a, n)}${labelOf(a) === undefined ? '' : `, naming it ${q(labelOf(a))}`}`,
  'svc.spatial.read_graph': (a, n) => `Read the spatial graph of ${world(a, n)}`,
  'svc.spatial.save_graph': (a, n) => `Save a new spatial graph for ${world(a, n)}`,
  'svc.spatial.add_view': (a, n) => `Add the view ${q(a.name ?? a.label)} to ${world(a, n)}`,
  'svc.spatial.remove_view': (a, n) => `Remove a view from ${world(a, n)}`,
  'svc.spatial.add_portal': (a, n) => `Add a portal ${q(a.label)} to ${world(a, n)}`,
  'svc.spatial.remove_portal': (a, n) => `Remove a portal from ${world(a, n)}`,
  'svc.spatial.set_node_state': (a, n) => `Set the live state at a node of ${world(a, n)}`,
  'svc.spatial.register_tag': (a) => `Register the tag ${q(`${String(a.scheme)}:${String(a.id)}`)}`,
  'svc.spatial.remove_tag': (a) => `Remove the tag ${q(`${String(a.scheme)}:${String(a.id)}`)}`,
  'svc.spatial.set_primary_world': (a, n) => `Make ${world(a, n)} this instance’s primary world`,
  'svc.spatial.present_traveller': (a) => `Sign a traveller presentation for ${q(a.destination)}`,
  'svc.spatial.admit_traveller': () => 'Admit a traveller',
  'svc.spatial.read_presence': () => 'See who is present',
};
