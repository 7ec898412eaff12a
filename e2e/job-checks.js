'use strict';
/**
 * Checks of the job the examples do, shared by the e2e suites: every master in the S3 bucket
 * under the key a user would choose, byte-exact (size and SHA-256 read back through the S3 API
 * against what the simulator served), and the Slack text naming each video, its key and size.
 */
const { BUCKET, KEY_PREFIX } = require('../scripts/services/job-services');

/** The Partner examples' place; the Enterprise Trigger example passes its own. */
const MASTERS = { bucket: BUCKET, prefix: KEY_PREFIX };

/** Asserts each video's master is in the bucket, byte-exact; returns [{ videoKey, key, size, sha256 }]. */
async function expectMastersInBucket({ job, sim, simulator }, videoKeys, where = MASTERS) {
	const listed = await job.objects(`${where.prefix}/`, where.bucket);
	const stored = [];
	for (const videoKey of videoKeys) {
		const file = simulator.getVideoFile(videoKey);
		const key = `${where.prefix}/${videoKey}/${file.fileName}`;
		expect(listed).toContainEqual({ key, size: file.size });
		const sha256 = sim.fileSha256(videoKey, file.size);
		expect(await job.object(key, where.bucket)).toEqual({ sha256, size: file.size });
		stored.push({ videoKey, key, size: file.size, sha256 });
	}
	return stored;
}

/**
 * The Slack text names each stored video: its title, where it is (s3://bucket/key) and its size;
 * with `withSha256` (the examples that copy with Copy to Storage), the SHA-256 of its bytes too.
 */
function expectAnnounced(text, stored, titles, bucket = BUCKET, { withSha256 = false } = {}) {
	for (const s of stored) {
		expect(text).toContain(`*${titles[s.videoKey]}*`);
		expect(text).toContain(`s3://${bucket}/${s.key}`);
		expect(text).toContain(`${s.size} bytes`);
		if (withSha256) expect(text).toContain(`SHA-256 ${s.sha256}`);
	}
}

module.exports = { expectMastersInBucket, expectAnnounced };
