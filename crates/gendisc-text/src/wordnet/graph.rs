//! The noun synset graph: compressed sparse rows of `u32` neighbour indices, symmetric, without
//! self-loops or repeated edges, and the breadth-first searches over it.

use std::cell::RefCell;

/// Marks "not reached" in a distance vector.
pub(super) const UNREACHED: u32 = u32::MAX;

/// An undirected graph in compressed sparse row form: the neighbours of node `u` are
/// `targets[starts[u]..starts[u + 1]]`, sorted and distinct.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Graph {
    starts: Vec<u32>,
    targets: Vec<u32>,
}

impl Graph {
    /// Builds the symmetric graph on `n` nodes from directed `edges` (both ends `< n`): every edge
    /// is entered in both directions, self-loops are dropped and repeats are merged.
    pub(super) fn symmetric(n: usize, edges: &[(u32, u32)]) -> Self {
        let mut degree = vec![0u32; n];
        for &(u, v) in edges {
            if u != v {
                degree[u as usize] += 1;
                degree[v as usize] += 1;
            }
        }
        // Exclusive prefix sum: `fill[u]` is where the next neighbour of `u` goes.
        let mut fill = Vec::with_capacity(n);
        let mut total = 0u32;
        for d in &degree {
            fill.push(total);
            total += d;
        }
        let mut raw = vec![0u32; total as usize];
        for &(u, v) in edges {
            if u != v {
                raw[fill[u as usize] as usize] = v;
                fill[u as usize] += 1;
                raw[fill[v as usize] as usize] = u;
                fill[v as usize] += 1;
            }
        }
        // Sort each row and drop repeats, compacting in place.
        let mut starts = Vec::with_capacity(n + 1);
        let mut write = 0usize;
        let mut read = 0usize;
        starts.push(0);
        for d in &degree {
            let end = read + *d as usize;
            raw[read..end].sort_unstable();
            let mut last = None;
            for i in read..end {
                let v = raw[i];
                if last != Some(v) {
                    raw[write] = v;
                    write += 1;
                    last = Some(v);
                }
            }
            read = end;
            starts.push(write as u32);
        }
        raw.truncate(write);
        raw.shrink_to_fit();
        Graph {
            starts,
            targets: raw,
        }
    }

    /// Number of nodes.
    pub(super) fn len(&self) -> usize {
        self.starts.len() - 1
    }

    /// Number of undirected edges.
    pub(super) fn n_edges(&self) -> usize {
        self.targets.len() / 2
    }

    /// The neighbours of `u`, sorted.
    pub(super) fn neighbours(&self, u: u32) -> &[u32] {
        let u = u as usize;
        &self.targets[self.starts[u] as usize..self.starts[u + 1] as usize]
    }

    /// Multi-source breadth-first search: the number of links from the nearest of `sources` to
    /// every node, [`UNREACHED`] beyond `cap` links or in another component.
    pub(super) fn distances_from(&self, sources: &[u32], cap: u32) -> Vec<u32> {
        let mut dist = vec![UNREACHED; self.len()];
        let mut frontier = Vec::with_capacity(sources.len());
        for &s in sources {
            if dist[s as usize] == UNREACHED {
                dist[s as usize] = 0;
                frontier.push(s);
            }
        }
        let mut next = Vec::new();
        let mut depth = 0;
        while !frontier.is_empty() && depth < cap {
            depth += 1;
            next.clear();
            for &u in &frontier {
                for &v in self.neighbours(u) {
                    if dist[v as usize] == UNREACHED {
                        dist[v as usize] = depth;
                        next.push(v);
                    }
                }
            }
            std::mem::swap(&mut frontier, &mut next);
        }
        dist
    }

    /// The fewest links between any node of `a` and any node of `b`, by a bidirectional
    /// breadth-first search that expands, one whole level at a time, the smaller of the two
    /// frontiers; `None` when more than `cap` links apart or unconnected.
    ///
    /// The first level whose expansion touches a node already reached from the other side gives
    /// the answer: before it, every node within `da` links of `a` and `db` links of `b` was
    /// known and none was shared, so the distance exceeds `da + db`; the touching node is at
    /// `da + 1` from `a` and at most `db` from `b`. The visited marks live in a per-thread
    /// scratch reused from call to call (generation-stamped, so never cleared).
    pub(super) fn distance(&self, a: &[u32], b: &[u32], cap: u32) -> Option<u32> {
        SCRATCH.with(|scratch| scratch.borrow_mut().distance(self, a, b, cap))
    }
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// Reusable state of the bidirectional search: per side, a generation stamp per node (the node
/// was reached in this search when its stamp equals `generation`) and the current frontier.
#[derive(Debug, Default)]
struct Scratch {
    seen: [Vec<u32>; 2],
    frontier: [Vec<u32>; 2],
    next: Vec<u32>,
    generation: u32,
}

impl Scratch {
    fn start(&mut self, n: usize) -> u32 {
        self.generation = self.generation.wrapping_add(1);
        let stale = self.generation == 0;
        for seen in &mut self.seen {
            if stale || seen.len() < n {
                let len = seen.len().max(n);
                seen.clear();
                seen.resize(len, 0);
            }
        }
        if stale {
            self.generation = 1;
        }
        for f in &mut self.frontier {
            f.clear();
        }
        self.generation
    }

    fn distance(&mut self, graph: &Graph, a: &[u32], b: &[u32], cap: u32) -> Option<u32> {
        let generation = self.start(graph.len());
        for (side, sources) in [a, b].into_iter().enumerate() {
            for &s in sources {
                if self.seen[1 - side][s as usize] == generation {
                    return Some(0);
                }
                if self.seen[side][s as usize] != generation {
                    self.seen[side][s as usize] = generation;
                    self.frontier[side].push(s);
                }
            }
        }
        let mut depth = [0u32; 2];
        loop {
            if depth[0] + depth[1] >= cap {
                return None;
            }
            let side = usize::from(self.frontier[1].len() < self.frontier[0].len());
            if self.frontier[side].is_empty() {
                return None;
            }
            let other = 1 - side;
            self.next.clear();
            for &u in &self.frontier[side] {
                for &v in graph.neighbours(u) {
                    let v = v as usize;
                    if self.seen[other][v] == generation {
                        return Some(depth[0] + depth[1] + 1);
                    }
                    if self.seen[side][v] != generation {
                        self.seen[side][v] = generation;
                        self.next.push(v as u32);
                    }
                }
            }
            std::mem::swap(&mut self.frontier[side], &mut self.next);
            depth[side] += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A path 0 - 1 - 2 - 3 - 4, a triangle 5 - 6 - 7, and 8 alone.
    fn sample() -> Graph {
        Graph::symmetric(
            9,
            &[
                (0, 1),
                (2, 1),
                (2, 3),
                (3, 4),
                (5, 6),
                (6, 7),
                (7, 5),
                (1, 0),
                (4, 4),
            ],
        )
    }

    #[test]
    fn edges_are_symmetric_sorted_and_distinct() {
        let g = sample();
        assert_eq!(g.len(), 9);
        assert_eq!(g.neighbours(1), &[0, 2]);
        assert_eq!(g.neighbours(0), &[1]);
        assert_eq!(g.neighbours(4), &[3], "the self-loop is dropped");
        assert_eq!(g.neighbours(5), &[6, 7]);
        assert!(g.neighbours(8).is_empty());
        assert_eq!(g.n_edges(), 7);
    }

    #[test]
    fn multi_source_bfs_counts_links_and_stops_at_the_cap() {
        let g = sample();
        let d = g.distances_from(&[0], 10);
        assert_eq!(&d[..5], &[0, 1, 2, 3, 4]);
        assert!(d[5..].iter().all(|&x| x == UNREACHED));
        let d = g.distances_from(&[0, 4], 10);
        assert_eq!(&d[..5], &[0, 1, 2, 1, 0]);
        let d = g.distances_from(&[0], 2);
        assert_eq!(&d[..5], &[0, 1, 2, UNREACHED, UNREACHED]);
    }

    #[test]
    fn bidirectional_search_agrees_on_the_sample() {
        let g = sample();
        assert_eq!(g.distance(&[0], &[4], 10), Some(4));
        assert_eq!(g.distance(&[0], &[4], 4), Some(4));
        assert_eq!(g.distance(&[0], &[4], 3), None);
        assert_eq!(g.distance(&[0, 5], &[4, 7], 10), Some(1));
        assert_eq!(g.distance(&[2], &[2], 0), Some(0));
        assert_eq!(g.distance(&[0], &[5], 100), None);
        assert_eq!(g.distance(&[8], &[8, 0], 100), Some(0));
        assert_eq!(g.distance(&[], &[0], 100), None);
    }

    fn arbitrary_graph() -> impl Strategy<Value = (usize, Vec<(u32, u32)>)> {
        (1usize..40).prop_flat_map(|n| {
            let e = (0..n as u32, 0..n as u32);
            (Just(n), proptest::collection::vec(e, 0..80))
        })
    }

    proptest! {
        /// The bidirectional search equals a plain multi-source BFS, in both directions, for
        /// every cap.
        #[test]
        fn bidirectional_equals_bfs(
            (n, edges) in arbitrary_graph(),
            a in proptest::collection::vec(0u32..40, 1..4),
            b in proptest::collection::vec(0u32..40, 1..4),
            cap in 0u32..8,
        ) {
            let g = Graph::symmetric(n, &edges);
            let a: Vec<u32> = a.into_iter().filter(|&x| (x as usize) < n).collect();
            let b: Vec<u32> = b.into_iter().filter(|&x| (x as usize) < n).collect();
            let dist = g.distances_from(&a, cap);
            let bfs = b.iter().map(|&v| dist[v as usize]).min().filter(|&d| d != UNREACHED);
            prop_assert_eq!(g.distance(&a, &b, cap), bfs);
            prop_assert_eq!(g.distance(&b, &a, cap), bfs);
        }
    }
}
