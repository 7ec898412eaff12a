// Everything n8n and the nodes write while a test runs (process streams and console), to check
// that no secret ever reaches a log line.
//
// n8n logs through winston's Console transport: it writes to console._stdout / _stderr when the
// console has them (jest's in-band console), else through console.log and friends as they were
// when n8n's logger was built, before any spy (jest's worker console, so a plain `npm test`).
// Giving this file's console the process streams sends every log line through the spies below.
// Call it at module level, before the first run builds n8n's logger.
export function outputCapture(): { start(): void; stop(): string } {
	Object.assign(console, { _stdout: process.stdout, _stderr: process.stderr });
	let written = '';
	let restore: (() => void) | undefined;
	return {
		start() {
			written = '';
			const spies = [process.stdout, process.stderr].map((stream) =>
				jest.spyOn(stream, 'write').mockImplementation(((chunk: string | Uint8Array) => {
					written += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
					return true;
				}) as never),
			);
			const consoles = (['log', 'info', 'warn', 'error', 'debug'] as const).map((method) =>
				jest.spyOn(console, method).mockImplementation((...args: unknown[]) => {
					written += `${args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ')}\n`;
				}),
			);
			restore = () => [...spies, ...consoles].forEach((spy) => spy.mockRestore());
		},
		/** Stops capturing; returns what was written since start(). */
		stop() {
			restore?.();
			restore = undefined;
			return written;
		},
	};
}
