/** The demo accounts every fresh World starts with: same seed, same licences every run. */
import type { CatalogueVideo } from './catalogue';
import { intBetween, mulberry32 } from './prng';
import { addKey, newPartnerAccount } from './account-registry';
import {
	DEMO_ENTERPRISE_KEY,
	DEMO_PARTNER_ACCOUNT_ID,
	DEMO_PARTNER_KEY,
	DEMO_PARTNER_OWNER_ACCOUNT_ID,
	DEMO_PARTNER_OWNER_KEY,
	SEED_NEWEST_PURCHASE,
	type EnterpriseAccount,
	type PartnerAccount,
	type PartnerKey,
} from './accounts';

export function seedDemoPartner(
	accounts: Map<string, PartnerAccount>,
	keys: Map<string, PartnerKey>,
	total: number,
	videos: CatalogueVideo[],
): void {
	const rng = mulberry32(0xde70_0001);
	const member = newPartnerAccount(accounts, DEMO_PARTNER_ACCOUNT_ID, rng);
	const owner = newPartnerAccount(accounts, DEMO_PARTNER_OWNER_ACCOUNT_ID, mulberry32(0xde70_0002));
	member.ownerId = owner.id;
	addKey(keys, member, DEMO_PARTNER_KEY);
	addKey(keys, owner, DEMO_PARTNER_OWNER_KEY);
	// Catalogue videos 0..total-1, newest purchase first; about 40 % held by the team owner.
	let t = SEED_NEWEST_PURCHASE;
	for (let i = 0; i < total; i++) {
		const v = videos[i] as CatalogueVideo;
		// The newest video belongs to the member, the second newest to the owner.
		const toOwner = i === 1 || (i > 1 && rng() < 0.4);
		(toOwner ? owner : member).licences.set(v.id, t);
		t -= rng() < 0.08 ? 0 : intBetween(rng, 60, 6 * 3600);
	}
}

export function seedDemoEnterprise(
	accounts: Map<string, EnterpriseAccount>,
	videos: CatalogueVideo[],
): void {
	const account: EnterpriseAccount = {
		key: DEMO_ENTERPRISE_KEY,
		customerId: 'cust_demo_enterprise',
		tier: 'enterprise',
		subscription: true,
		downloads: 0,
		perVideo: new Map(),
		activeCollections: 3,
		wildcard: true,
	};
	for (const [i, count] of [
		[10, 12],
		[20, 7],
		[30, 3],
	] as const) {
		const v = videos[i];
		if (!v) continue;
		account.perVideo.set(v.id, count);
		account.downloads += count;
	}
	accounts.set(account.key, account);
}
