// Letting go of a storage answer's body: the connection under it closes now, not at n8n's 60 s
// idle timeout (a socket left open that long also holds the n8n process).

/** What letting go needs of a body (ordered-output.ts's Body, plus what Node's Readable tells). */
interface Releasable {
	on(event: string, listener: (...args: never[]) => void): unknown;
	removeListener(event: string, listener: (...args: never[]) => void): unknown;
	resume(): unknown;
	destroy(error?: Error): unknown;
	readonly destroyed?: boolean;
	/** Node's Readable: whether anything was read from it yet. */
	readonly readableDidRead?: boolean;
}

const ignore = () => undefined;

/** Stops reading a body: only our listeners go (n8n's HTTP client keeps its own). */
export function discard(
	body: Releasable,
	listeners: Array<[string, (...args: never[]) => void]> = [],
) {
	for (const [event, listener] of listeners) body.removeListener(event, listener);
	// Destroying can still emit an error; with no listener it would crash the process.
	body.on('error', ignore);
	if (body.readableDidRead !== false || body.destroyed) {
		body.destroy();
		return;
	}
	// Never read: n8n 2.x's HTTP client hands the response over inside its own stream, fed by a
	// generator that starts on the first read, and destroying that stream before then never
	// reaches the response. One chunk read starts it; destroying it then closes the response.
	let released = false;
	const release = () => {
		if (released) return;
		released = true;
		body.destroy();
	};
	body.on('data', release);
	body.on('end', release);
	body.resume();
}
