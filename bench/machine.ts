// What the results were measured on: CPU, cores, memory, Node, kernel and the disk bench/tmp is on.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import os from 'node:os';

export interface Machine {
	cpu: string;
	cores: number;
	memoryGiB: number;
	node: string;
	os: string;
	disk: string;
}

function disk(path: string): string {
	try {
		const lines = execFileSync('df', ['-T', '-B1', path], { encoding: 'utf8' }).trim().split('\n');
		const [device, type, size] = (lines[lines.length - 1] ?? '').split(/\s+/);
		let kind = '';
		const dev = basename(device ?? '')
			.replace(/[0-9]+$/, '')
			.replace(/p$/, '');
		const rotational = `/sys/block/${dev}/queue/rotational`;
		if (dev.startsWith('vd')) kind = ', virtio block device';
		else if (dev && existsSync(rotational))
			kind = readFileSync(rotational, 'utf8').trim() === '0' ? ', non-rotational' : ', rotational';
		const model = `/sys/block/${dev}/device/model`;
		if (dev && existsSync(model)) kind += `, ${readFileSync(model, 'utf8').trim()}`;
		return `${device} (${type}, ${(Number(size) / 1024 ** 3).toFixed(0)} GiB${kind})`;
	} catch {
		return 'unknown';
	}
}

export function describeMachine(path: string): Machine {
	const cpus = os.cpus();
	return {
		cpu: cpus[0]?.model.trim() ?? 'unknown',
		cores: cpus.length,
		memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
		node: process.version,
		os: `${os.type()} ${os.release()} ${os.arch()}`,
		disk: disk(path),
	};
}
