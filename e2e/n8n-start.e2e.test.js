'use strict';
/**
 * The harness's `n8n start` (scripts/n8n/n8n-server.js) in a user folder n8n has never run in:
 * n8n runs its migrations while it already listens, and the owner must still be set up (on n8n
 * 1.x through the REST API) and logged in. The harness once took n8n 1.x's 200 "n8n is starting
 * up" for a set-up owner and then met 401 for 3 minutes; the suite's first `n8n start` hit it.
 */
const path = require('node:path');
const { E2E_DIR, OWNER, rt } = require('./helpers');

test('n8n start in a user folder n8n has never run in: the owner is set up and logged in', async () => {
	const userFolder = path.join(E2E_DIR, 'n8n-user-never-run');
	const inst = await rt.createInstance({
		userFolder,
		filesFolder: path.join(E2E_DIR, 'files-never-run'),
		fresh: true,
	});
	const server = await rt.startServer(inst, {
		port: await rt.freePort(),
		owner: OWNER,
		logFile: path.join(userFolder, 'n8n-start.log'),
	});
	try {
		// The session's user, as n8n's editor asks for it.
		const me = await server.rest('GET', '/login');
		expect(me.email).toBe(OWNER.email);
		expect(me.role).toBe('global:owner');
	} finally {
		await server.stop();
	}
});
