/** Issuing signed storage URLs (both APIs' download endpoints). */
import { createHash } from 'node:crypto';
import type { CatalogueVideo } from './catalogue';
import { urlDisposition } from './disposition';
import type { Engine } from './engine';
import { signUrl } from './signing';
import type { VideoFile } from './types';

export function issueDownloadUrl(
	engine: Engine,
	video: CatalogueVideo,
	nowMs: number,
	expiresInSeconds: number,
): { url: string; expiresAt: number; file: VideoFile } {
	const file = engine.world.file(video.id);
	const issuedAt = Math.floor(nowMs / 1000);
	const { url, signature } = signUrl(engine.secret, engine.storageUrl, {
		key: video.id,
		issuedAt,
		expiresIn: expiresInSeconds,
		disposition: urlDisposition(file),
		token: createHash('sha256')
			.update(`${engine.secret}:url:${++engine.urlCounter}`)
			.digest('base64url')
			.slice(0, 32),
	});
	if (engine.faults.takeEarlyExpiry()) engine.faults.earlyExpiredSignatures.add(signature);
	return { url, expiresAt: issuedAt + expiresInSeconds, file };
}
