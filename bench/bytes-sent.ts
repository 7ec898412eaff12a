// What storage sent for one file, from the simulator's request log (the bench's simulator runs
// in a child process: sim-child.ts answers `storageBytesSent` with this). Beyond the file's
// size it is what a download fetched twice (a slow part's bytes already under way at a hand-over).
import type { LoggedRequest } from '../simulator';

/** Body bytes storage wrote on every request for `path` (a signed URL's path: its query differs per URL). */
export function storageBytesSent(log: readonly LoggedRequest[], path: string): number {
	return log
		.filter((e) => e.target === 'storage' && e.path === path)
		.reduce((sum, e) => sum + (e.bytesSent ?? 0), 0);
}
