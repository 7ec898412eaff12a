/** Simulator accounts: the demo keys, account shapes, and the order every Partner list uses. */
import type { CatalogueVideo } from './catalogue';
import type { Rng } from './prng';
import type { Tier } from './types';

export const DEMO_PARTNER_KEY = 'apik_demo.gridbank-partner-demo';
/** Addition: a key of the demo member's team owner (sees only the owner's licences). */
export const DEMO_PARTNER_OWNER_KEY = 'apik_demoowner.gridbank-partner-owner';
export const DEMO_ENTERPRISE_KEY = 'ent_demo_gridbank_enterprise';
export const DEMO_PARTNER_ACCOUNT_ID = 'acc_demo_member';
export const DEMO_PARTNER_OWNER_ACCOUNT_ID = 'acc_demo_owner';
/** purchased_at (Unix seconds) of the demo account's newest seeded purchase: 2024-12-31T12:00:00Z. */
export const SEED_NEWEST_PURCHASE = 1_735_646_400;
export const PARTNER_KEY_PATTERN = /^apik_([A-Za-z0-9]+)\.([A-Za-z0-9_-]+)$/;
export const MAX_KEYS_PER_MEMBER = 10;

export interface PartnerAccount {
	id: string;
	/** Team owner account whose licences this (member) account also sees. */
	ownerId?: string;
	/** video key -> purchased_at (Unix seconds). */
	licences: Map<string, number>;
	withdrawn: boolean;
	/** Requests still answered normally before a pending withdrawal takes effect. */
	withdrawAfter: number | null;
	keys: string[];
	version: number;
	rng: Rng;
}

export interface PartnerKey {
	key: string;
	accountId: string;
	revoked: boolean;
}

export interface EnterpriseAccount {
	key: string;
	customerId: string;
	tier: Tier;
	subscription: boolean;
	downloads: number;
	perVideo: Map<string, number>;
	activeCollections: number;
	wildcard: boolean;
}

export interface VisibleItem {
	video: CatalogueVideo;
	purchasedAt: number;
}

/** Newest purchase first; ties (same second) by video key ascending. Cursors rely on this order. */
export function compareVisible(
	a: { purchasedAt: number; key: string },
	b: { purchasedAt: number; key: string },
): number {
	if (a.purchasedAt !== b.purchasedAt) return b.purchasedAt - a.purchasedAt;
	return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

/** Seconds, accepting milliseconds too (values above 1e11 are taken as ms). */
export function toSeconds(t: number): number {
	return Math.floor(t > 1e11 ? t / 1000 : t);
}
