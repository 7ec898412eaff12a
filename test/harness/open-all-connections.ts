// For the tests of the parallel path itself (segments, their faults, hand-overs): every
// connection opens at once, as over a link one stream cannot fill. Over loopback a download
// otherwise runs as one stream until n8n's store waits on it (connection-budget.ts), and whether
// it ever does depends on the machine's load. Call at the top of a test file.
import { setBudgetStart } from '../../nodes/shared/download/connection-budget';

export function openAllConnections(): void {
	beforeAll(() => setBudgetStart('all'));
	afterAll(() => setBudgetStart());
}
