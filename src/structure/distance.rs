//! Edit distance with a limit, for "did you mean" suggestions: work stops as soon as
//! the distance is known to exceed the limit, so a long name costs little.

/// The Levenshtein distance between `a` and `b` if it is at most `limit`, and the number
/// of table cells computed (for the caller's overall budget).
pub(super) fn within(a: &[char], b: &[char], limit: usize) -> (Option<usize>, usize) {
    if a.len().abs_diff(b.len()) > limit {
        return (None, 0);
    }
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current = vec![0; b.len() + 1];
    let mut cells = 0;
    for (i, &ca) in a.iter().enumerate() {
        current[0] = i + 1;
        let mut row_min = current[0];
        for (j, &cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != cb);
            current[j + 1] = substitution.min(previous[j + 1] + 1).min(current[j] + 1);
            row_min = row_min.min(current[j + 1]);
        }
        cells += b.len();
        // Every later row is at least this row's minimum.
        if row_min > limit {
            return (None, cells);
        }
        std::mem::swap(&mut previous, &mut current);
    }
    let distance = previous[b.len()];
    ((distance <= limit).then_some(distance), cells)
}
