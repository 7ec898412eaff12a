// A local OpenSSH server for the storage-chain phase's SFTP row: Debian's sshd, started as the
// current user with a host key and an authorized client key generated into `dir`; nothing of
// the machine's own SSH set-up is read or changed.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { userInfo } from 'node:os';
import { join } from 'node:path';

import { aptInstallIfRoot } from './apt';

const SSHD = '/usr/sbin/sshd';
const INSTALL_HINT = `${SSHD} is missing: install Debian's OpenSSH server (apt-get install -y openssh-server; as root or with passwordless sudo the bench installs it)`;

/**
 * Debian's sshd, installed with the project's apt helper (root or passwordless sudo) when missing.
 * run.ts calls it before the first phase: a full run found it missing only at the storage phase,
 * after 90 minutes of measuring, and lost them all.
 */
export async function ensureSshd(): Promise<void> {
	if (existsSync(SSHD)) return;
	await aptInstallIfRoot(['openssh-server']);
	if (!existsSync(SSHD)) throw new Error(INSTALL_HINT);
}

export interface Sshd {
	port: number;
	username: string;
	/** The client's private key (OpenSSH format), for n8n's SFTP credential. */
	privateKey: string;
	close(): Promise<void>;
}

function keyPair(file: string): void {
	if (!existsSync(file))
		execFileSync('ssh-keygen', [
			'-q',
			'-t',
			'ed25519',
			'-N',
			'',
			'-C',
			'gridbank-bench',
			'-f',
			file,
		]);
}

function listening(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const socket = createConnection({ host: '127.0.0.1', port }, () => {
			socket.destroy();
			resolve(true);
		});
		socket.on('error', () => resolve(false));
	});
}

export async function startSshd(dir: string, port: number): Promise<Sshd> {
	if (!existsSync(SSHD)) throw new Error(INSTALL_HINT);
	mkdirSync(dir, { recursive: true });
	keyPair(join(dir, 'host_key'));
	keyPair(join(dir, 'client_key'));
	writeFileSync(join(dir, 'authorized_keys'), readFileSync(join(dir, 'client_key.pub')));
	const config = join(dir, 'sshd_config');
	writeFileSync(
		config,
		[
			'ListenAddress 127.0.0.1',
			`HostKey ${join(dir, 'host_key')}`,
			`AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
			'PidFile none',
			// The keys live in a checkout whose folders other users may read.
			'StrictModes no',
			'PasswordAuthentication no',
			'KbdInteractiveAuthentication no',
			'UsePAM no',
			'PermitRootLogin prohibit-password',
			'Subsystem sftp internal-sftp',
			'LogLevel ERROR',
			'',
		].join('\n'),
	);
	const sshd = [SSHD, '-D', '-e', '-f', config, '-p', String(port)];
	// As root, sshd insists on its privilege-separation folder /run/sshd, which only the
	// distribution's service creates: give it one in a private mount namespace instead of
	// changing the machine. A non-root user (CI) runs sshd directly.
	const child: ChildProcess =
		process.getuid?.() === 0 && !existsSync('/run/sshd')
			? spawn(
					'unshare',
					[
						'-m',
						'sh',
						'-c',
						'mount -t tmpfs tmpfs /run && mkdir /run/sshd && exec "$@"',
						'sh',
						...sshd,
					],
					{ stdio: ['ignore', 'ignore', 'pipe'] },
				)
			: spawn(sshd[0] as string, sshd.slice(1), { stdio: ['ignore', 'ignore', 'pipe'] });
	let stderr = '';
	child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
	let exited = false;
	child.on('exit', () => (exited = true));
	for (let i = 0; !(await listening(port)); i++) {
		if (exited || i > 100) {
			child.kill();
			throw new Error(`sshd did not start on port ${port}: ${stderr.slice(-1000)}`);
		}
		await new Promise((r) => setTimeout(r, 100));
	}
	return {
		port,
		username: userInfo().username,
		privateKey: readFileSync(join(dir, 'client_key'), 'utf8'),
		close: async () => {
			if (exited) return;
			const done = new Promise((r) => child.once('exit', r));
			child.kill('SIGTERM');
			await done;
			rmSync(join(dir, 'sshd_config'), { force: true });
		},
	};
}
