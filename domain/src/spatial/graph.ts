// A spatial composition graph is a forest: every node has at most one parent, the parent lists it among
// its children and nothing else does, and following parents always ends at a root. Checked before a
// revision is recorded; a cycle is its own code, as editors make that mistake and want to know which.
import { domainError, invalid } from '../shared/errors.js';
import { SPATIAL_LIMITS, type SpatialNode } from './shapes.js';

export function requireValidGraph(nodes: readonly SpatialNode[]): void {
  if (nodes.length > SPATIAL_LIMITS.nodes)
    throw domainError('spatial.graph_too_large', 'too_large', 'the graph has too many nodes', {
      nodes: nodes.length,
      limit: SPATIAL_LIMITS.nodes,
    });
  const byId = new Map<string, SpatialNode>();
  for (const node of nodes) {
    if (byId.has(node.id))
      throw invalid('spatial.graph_invalid', 'two nodes have one id', {
        reason: 'duplicate_id',
        nodeId: node.id,
      });
    byId.set(node.id, node);
  }
  for (const node of nodes) {
    if (node.parent !== null) {
      const parent = byId.get(node.parent);
      if (!parent)
        throw invalid('spatial.graph_invalid', 'a node names a parent that is not in the graph', {
          reason: 'unknown_parent',
          nodeId: node.id,
        });
      if (!parent.children.includes(node.id))
        throw invalid('spatial.graph_invalid', 'a parent does not list its child', {
          reason: 'child_not_listed',
          nodeId: node.id,
        });
    }
    const seen = new Set<string>();
    for (const childId of node.children) {
      if (seen.has(childId))
        throw invalid('spatial.graph_invalid', 'a node lists a child twice', {
          reason: 'duplicate_child',
          nodeId: node.id,
        });
      seen.add(childId);
      const child = byId.get(childId);
      if (!child)
        throw invalid('spatial.graph_invalid', 'a node lists a child that is not in the graph', {
          reason: 'unknown_child',
          nodeId: node.id,
        });
      if (child.parent !== node.id)
        throw invalid('spatial.graph_invalid', 'a listed child names another parent', {
          reason: 'parent_mismatch',
          nodeId: childId,
        });
    }
  }
  // Depth of each node, memoized; a node met again on its own path is a cycle.
  const depth = new Map<string, number>();
  for (const start of nodes) {
    const path: string[] = [];
    const onPath = new Set<string>();
    let cur: SpatialNode | undefined = start;
    while (cur && !depth.has(cur.id)) {
      if (onPath.has(cur.id))
        throw invalid('spatial.graph_cycle', 'following parents comes back to a node', { nodeId: cur.id });
      onPath.add(cur.id);
      path.push(cur.id);
      cur = cur.parent === null ? undefined : byId.get(cur.parent);
    }
    let d = cur ? (depth.get(cur.id) ?? 0) : 0;
    for (let i = path.length - 1; i >= 0; i--) {
      d += 1;
      if (d > SPATIAL_LIMITS.depth)
        throw domainError('spatial.graph_too_large', 'too_large', 'the graph is nested too deeply', {
          depth: d,
          limit: SPATIAL_LIMITS.depth,
        });
      depth.set(path[i]!, d);
    }
  }
}
