/**
 * GridBank simulator: both GridBank APIs (Partner /partner/v1, Enterprise /external/v1)
 * and S3-style signed-URL storage on 127.0.0.1, with a seeded catalogue and fault switches.
 * Tests, the demo and the benchmark all code against this module.
 */
export { startSimulator } from './server';
export type { InternalOptions } from './server';
export { fileBytes, fileSha256 } from './file-content';
export { versionedId } from './byte-faults';
export { keyForms } from './key-forms';
export { hostileErrorJson, hostileErrorText } from './hostile-body';
export {
	DEMO_ENTERPRISE_KEY,
	DEMO_PARTNER_ACCOUNT_ID,
	DEMO_PARTNER_KEY,
	DEMO_PARTNER_OWNER_ACCOUNT_ID,
	DEMO_PARTNER_OWNER_KEY,
	SEED_NEWEST_PURCHASE,
} from './world';
export { TIER_RATES } from './rate-limit';
export { THEMES } from './words';
export type {
	ChecksumKind,
	DispositionMode,
	EndCursorStyle,
	EnterpriseCreator,
	EnterpriseVideo,
	FailNextOptions,
	Faults,
	LoggedRequest,
	ObjectReplacement,
	PartnerAccountInfo,
	PartnerPagingFault,
	RangedFault,
	RateHeadersOverride,
	ResetConnectionsOptions,
	Simulator,
	SimulatorOptions,
	Tier,
	TierRate,
	UnevenLinkOptions,
	VideoFile,
	VideoLocation,
	WanLinkOptions,
} from './types';
