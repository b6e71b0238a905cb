// One counter that orders the reads of the station list and the changes announced to its readers,
// so a reader can tell whether a read began after a change it saw (two reads or a read and a
// change in the same millisecond are still ordered).
import type { StationListItem } from '@tinygs/contracts';

let tick = 0;

/** The next time in read order. */
export function nextTick(): number {
  tick += 1;
  return tick;
}

/** Where reads of the station list made for others can be taken from. */
export interface SharedReads {
  /**
   * The rows of the stations `ids` (all of them, or those of the set that exist) as read by a
   * read that began after `since`, or null when there was none: the caller reads for itself.
   */
  rowsReadAfter(
    since: number,
    ids: ReadonlySet<string> | 'all',
  ): Promise<readonly StationListItem[]> | null;
}
