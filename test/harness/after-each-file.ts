// After each test file: what n8n-core leaves running that would keep Jest's worker alive once
// the suite is done ("a worker process has failed to exit gracefully").
import { Container } from '@n8n/di';

interface ShutsDown {
	onShutdown(): void;
}

afterAll(() => {
	// n8n-core 1.x's SSHClientsManager (made with every ExecuteContext) runs a 60 s cleanup
	// interval it never unrefs (2.x unrefs it); shut it down as n8n does when its process exits.
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { SSHClientsManager } = require('n8n-core/dist/execution-engine/ssh-clients-manager') as {
		SSHClientsManager: new () => ShutsDown;
	};
	if (Container.has(SSHClientsManager)) Container.get(SSHClientsManager).onShutdown();
});
