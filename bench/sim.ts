// Parent side of sim-child.ts: starts the simulator in its own process and calls it.
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

import { DEMO_PARTNER_KEY, type SimulatorOptions } from '../simulator';

export interface ApiLogEntry {
	at: number;
	status: number;
	path: string;
	perPage?: string;
	page?: string;
}

export class ChildSimulator {
	baseUrl = '';
	storageUrl = '';
	private nextId = 0;
	private readonly pending = new Map<
		number,
		{ resolve: (v: unknown) => void; reject: (e: Error) => void }
	>();

	private constructor(private readonly child: ChildProcess) {
		child.on('message', (m: { id: number; result?: unknown; error?: string }) => {
			const p = this.pending.get(m.id);
			if (!p) return;
			this.pending.delete(m.id);
			if (m.error !== undefined) p.reject(new Error(`simulator: ${m.error}`));
			else p.resolve(m.result);
		});
		child.on('exit', (code) => {
			for (const p of this.pending.values())
				p.reject(new Error(`simulator process exited (${code})`));
			this.pending.clear();
		});
	}

	static async start(options: SimulatorOptions = {}): Promise<ChildSimulator> {
		const child = fork(join(__dirname, 'sim-child.js'), [], {
			execArgv: [],
			stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
		});
		const sim = new ChildSimulator(child);
		const { baseUrl, storageUrl } = (await sim.call('start', options)) as {
			baseUrl: string;
			storageUrl: string;
		};
		sim.baseUrl = baseUrl;
		sim.storageUrl = storageUrl;
		return sim;
	}

	call(op: string, ...args: unknown[]): Promise<unknown> {
		const id = ++this.nextId;
		return new Promise((resolve, reject) => {
			this.pending.set(id, { resolve, reject });
			this.child.send({ id, op, args });
		});
	}

	/** The demo Partner key's n-th licensed video, its file set to `size` bytes named `fileName`. */
	async benchVideo(n: number, size: number, fileName: string): Promise<string> {
		const licences = (await this.call('partnerLicences', DEMO_PARTNER_KEY)) as Array<{
			video_key: string;
		}>;
		const videoKey = licences[n]?.video_key as string;
		await this.call('setVideoFile', videoKey, { size, fileName, disposition: 'filename' });
		return videoKey;
	}

	apiLog(pathPart: string): Promise<ApiLogEntry[]> {
		return this.call('apiLog', pathPart) as Promise<ApiLogEntry[]>;
	}

	async close(): Promise<void> {
		const exited = new Promise((resolve) => this.child.once('exit', resolve));
		await this.call('close').catch(() => undefined);
		await exited;
	}
}
