// Connections this process still holds to a server: a storage answer the download let go of
// must not keep its socket open (n8n's HTTP client would hold it until its 60 s idle timeout).
import { Socket } from 'node:net';

/** Sockets of this process still connected to `url`'s port (n8n's HTTP client holds them). */
function socketsTo(url: string): number {
	const port = Number(new URL(url).port);
	// Node's list of live handles: the one view of the sockets inside n8n's HTTP client.
	const handles = (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles();
	return handles.filter((h) => h instanceof Socket && !h.destroyed && h.remotePort === port).length;
}

/** Waits up to 15 s (a kept-alive socket closes within the simulator's 5 s) for none to be left to `url`. */
export async function socketsLeftTo(url: string): Promise<number> {
	const until = Date.now() + 15_000;
	while (socketsTo(url) > 0 && Date.now() < until)
		await new Promise((resolve) => setTimeout(resolve, 200));
	return socketsTo(url);
}
