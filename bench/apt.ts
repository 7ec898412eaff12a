// The project's apt helper (scripts/toolchain/apt-install.js), typed for the bench's tools that
// a fresh Debian machine lacks (aria2c, sshd).
import { join } from 'node:path';

import { ROOT } from './env';

/**
 * Installs Debian packages as root or with passwordless sudo; false, with nothing done, when
 * neither is available (the caller then says how to install them).
 */
export async function aptInstallIfRoot(packages: string[]): Promise<boolean> {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const apt = require(join(ROOT, 'scripts', 'toolchain', 'apt-install.js')) as {
		aptInstall(p: string[], o: { label: string }): Promise<void>;
		rootPrefix(): string[] | undefined;
	};
	if (!apt.rootPrefix()) return false;
	await apt.aptInstall(packages, { label: '[bench]' });
	return true;
}
