// This area's operations as plan steps read (services/src/shared/step-words.ts).
import { q, shortId, type DescribeStep } from '../shared/step-words.js';

/** A world's name from its content, when the arguments give one. */
const named = (a: Record<string, unknown>) => {
  const content = a.content as { name?: unknown } | undefined;
  return content && typeof content.name === 'string' ? ` named ${q(content.name)}` : '';
};
const world = (a: Record<string, unknown>) => `the world ${shortId(a.worldId)}`;

export const spatialStepWords: Record<string, DescribeStep> = {
  'svc.spatial.list_worlds': () => 'List your worlds',
  'svc.spatial.create_world': (a) => `Create a ${a.visibility === 'public' ? 'public ' : ''}world${named(a)}`,
  'svc.spatial.read_world': (a) => `Read ${world(a)}`,
  'svc.spatial.update_world': (a) => `Change ${world(a)}${named(a)}`,
  'svc.spatial.read_graph': (a) => `Read the spatial graph of ${world(a)}`,
  'svc.spatial.save_graph': (a) => `Save a new spatial graph for ${world(a)}`,
  'svc.spatial.add_view': (a) => `Add the view ${q(a.name ?? a.label)} to ${world(a)}`,
  'svc.spatial.remove_view': (a) => `Remove a view from ${world(a)}`,
  'svc.spatial.add_portal': (a) => `Add a portal ${q(a.label)} to ${world(a)}`,
  'svc.spatial.remove_portal': (a) => `Remove a portal from ${world(a)}`,
  'svc.spatial.set_node_state': (a) => `Set the live state at a node of ${world(a)}`,
  'svc.spatial.register_tag': (a) => `Register the tag ${q(`${String(a.scheme)}:${String(a.id)}`)}`,
  'svc.spatial.remove_tag': (a) => `Remove the tag ${q(`${String(a.scheme)}:${String(a.id)}`)}`,
  'svc.spatial.set_primary_world': (a) => `Make ${world(a)} this instance’s primary world`,
  'svc.spatial.present_traveller': (a) => `Sign a traveller presentation for ${q(a.destination)}`,
  'svc.spatial.admit_traveller': () => 'Admit a traveller',
  'svc.spatial.read_presence': () => 'See who is present',
};
