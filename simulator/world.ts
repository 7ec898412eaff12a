/**
 * Mutable simulator state: catalogue (seeded + added videos), file overrides, Partner
 * accounts/keys/licences and Enterprise accounts/usage. reset() builds a fresh World
 * from the same seed, so the seeded state is identical every time.
 */
import { ID_PATTERN, seededCatalogue, type CatalogueVideo } from './catalogue';
import { base62, intBetween, mulberry32, type Rng } from './prng';
import type { EnterpriseVideo, Tier, VideoFile } from './types';
import { addKey, newPartnerAccount } from './account-registry';
import {
	compareVisible,
	MAX_KEYS_PER_MEMBER,
	SEED_NEWEST_PURCHASE,
	toSeconds,
	type EnterpriseAccount,
	type PartnerAccount,
	type PartnerKey,
	type VisibleItem,
} from './accounts';
import { addedVideo, hiddenVideo } from './added-videos';
import { seedDemoEnterprise, seedDemoPartner } from './demo-seed';

// Other simulator modules and the package's index import these from here.
export * from './accounts';

export class World {
	readonly videos = new Map<string, CatalogueVideo>();
	/** Searchable videos, in catalogue order. */
	readonly searchable: CatalogueVideo[] = [];
	/** Bumped whenever the searchable set changes (search cache key). */
	catalogueVersion = 0;
	/**
	 * How `recent` orders videos published in the same second (GridBank does not specify it):
	 * 0 by id; any other number a shuffle of its own (a re-index serving ties in another order).
	 */
	tieSeed = 0;
	readonly fileOverrides = new Map<string, Partial<VideoFile>>();
	readonly partnerAccounts = new Map<string, PartnerAccount>();
	readonly partnerKeys = new Map<string, PartnerKey>();
	readonly enterpriseAccounts = new Map<string, EnterpriseAccount>();
	private readonly rng: Rng = mulberry32(0x51de_c0de);
	private readonly seededSize: number;
	private accountCounter = 0;
	private videoCounter = 0;
	private visibleCache = new Map<string, { stamp: string; items: VisibleItem[] }>();

	constructor(
		opts: { partnerLicences: number; enterpriseVideos: number },
		private readonly now: () => number,
	) {
		const size = Math.max(opts.enterpriseVideos, opts.partnerLicences + 1000);
		this.seededSize = size;
		const { videos } = seededCatalogue(size);
		for (const v of videos) {
			this.videos.set(v.id, v);
			this.searchable.push(v);
		}
		seedDemoPartner(this.partnerAccounts, this.partnerKeys, opts.partnerLicences, videos);
		seedDemoEnterprise(this.enterpriseAccounts, videos);
	}

	// ---------------------------------------------------------------- Partner

	private newKey(): { key: string; secret: string } {
		for (;;) {
			const id = base62(this.rng, 10);
			const secret = base62(this.rng, 32);
			const key = `apik_${id}.${secret}`;
			if (!this.partnerKeys.has(key)) return { key, secret };
		}
	}

	partnerAccountOfKey(key: string): PartnerAccount {
		const k = this.partnerKeys.get(key);
		const account = k && this.partnerAccounts.get(k.accountId);
		if (!account) throw new Error('unknown Partner key');
		return account;
	}

	createPartnerAccount(o: {
		licences: number;
		teamOwnerLicences?: number;
		purchasedAtStart?: number;
	}): {
		key: string;
		accountId: string;
		secret: string;
	} {
		const n = ++this.accountCounter;
		const rng = mulberry32(0xacc0_0000 + n);
		const member = newPartnerAccount(this.partnerAccounts, `acc_${n}`, rng);
		const ownerCount = o.teamOwnerLicences ?? 0;
		let owner: PartnerAccount | undefined;
		if (o.teamOwnerLicences !== undefined) {
			owner = newPartnerAccount(
				this.partnerAccounts,
				`acc_${n}_owner`,
				mulberry32(0xacc1_0000 + n),
			);
			member.ownerId = owner.id;
		}
		const total = o.licences + ownerCount;
		const picked = this.pickVideos(rng, total, new Set());
		const toOwner = picked.map((_, i) => i < ownerCount);
		for (let i = toOwner.length - 1; i > 0; i--) {
			const j = Math.floor(rng() * (i + 1));
			[toOwner[i], toOwner[j]] = [toOwner[j] as boolean, toOwner[i] as boolean];
		}
		const ascending = o.purchasedAtStart !== undefined;
		let t = ascending ? toSeconds(o.purchasedAtStart as number) : SEED_NEWEST_PURCHASE;
		picked.forEach((id, i) => {
			(toOwner[i] && owner ? owner : member).licences.set(id, t);
			const gap = rng() < 0.08 ? 0 : intBetween(rng, 60, 3600);
			t += ascending ? gap : -gap;
		});
		const { key, secret } = this.newKey();
		addKey(this.partnerKeys, member, key);
		if (owner) addKey(this.partnerKeys, owner, this.newKey().key);
		return { key, accountId: member.id, secret };
	}

	addPartnerKey(existingKey: string): string {
		const account = this.partnerAccountOfKey(existingKey);
		const active = account.keys.filter((k) => !this.partnerKeys.get(k)?.revoked).length;
		if (active >= MAX_KEYS_PER_MEMBER)
			throw new Error(`a member holds at most ${MAX_KEYS_PER_MEMBER} keys`);
		const { key } = this.newKey();
		addKey(this.partnerKeys, account, key);
		return key;
	}

	/** `n` distinct catalogue videos not in `exclude`, creating hidden ones when the catalogue runs out. */
	private pickVideos(rng: Rng, n: number, exclude: Set<string>): string[] {
		const out: string[] = [];
		const pool = this.searchable.filter((v) => !exclude.has(v.id)).map((v) => v.id);
		for (let i = 0; i < n && pool.length > 0; i++) {
			const j = Math.floor(rng() * pool.length);
			out.push(pool[j] as string);
			pool[j] = pool[pool.length - 1] as string;
			pool.pop();
		}
		while (out.length < n) out.push(this.createHiddenVideo().id);
		return out;
	}

	private createHiddenVideo(id?: string): CatalogueVideo {
		const index = this.seededSize + ++this.videoCounter;
		let vid = id;
		while (!vid || this.videos.has(vid)) vid = `gbx-${base62(this.rng, 9)}`;
		const template = this.searchable[index % this.searchable.length] as CatalogueVideo;
		const video = hiddenVideo(template, vid, index, this.rng);
		this.videos.set(vid, video);
		return video;
	}

	addPartnerLicences(
		key: string,
		n: number,
		o: { purchasedAt?: number; videoKeys?: string[] } = {},
	): string[] {
		const account = this.partnerAccountOfKey(key);
		if (o.videoKeys && o.videoKeys.length !== n) throw new Error('videoKeys.length must equal n');
		const visible = new Set(this.visible(account).map((i) => i.video.id));
		let ids: string[];
		if (o.videoKeys) {
			ids = o.videoKeys.map((id) => {
				if (id.length < 1 || id.length > 50 || !ID_PATTERN.test(id))
					throw new Error(`invalid video key ${JSON.stringify(id)}`);
				return this.videos.get(id)?.id ?? this.createHiddenVideo(id).id;
			});
		} else {
			ids = this.pickVideos(account.rng, n, visible);
		}
		const t =
			o.purchasedAt !== undefined ? toSeconds(o.purchasedAt) : Math.floor(this.now() / 1000);
		for (const id of ids) account.licences.set(id, t);
		account.version++;
		return [...ids].sort((a, b) =>
			compareVisible({ purchasedAt: t, key: a }, { purchasedAt: t, key: b }),
		);
	}

	/** A refund or takedown: the account's licences of these videos vanish (list and download). */
	removePartnerLicences(key: string, videoKeys: string[]): void {
		const account = this.partnerAccountOfKey(key);
		for (const id of videoKeys)
			if (!account.licences.delete(id)) throw new Error(`${id} is not licensed by this account`);
		account.version++;
	}

	/** The videos an account sees: its own licences plus its team owner's, newest purchase first. */
	visible(account: PartnerAccount): VisibleItem[] {
		const owner = account.ownerId ? this.partnerAccounts.get(account.ownerId) : undefined;
		const stamp = `${account.version}:${owner?.version ?? -1}`;
		const cached = this.visibleCache.get(account.id);
		if (cached && cached.stamp === stamp) return cached.items;
		const merged = new Map<string, number>(owner ? owner.licences : []);
		for (const [id, t] of account.licences)
			merged.set(id, Math.max(t, merged.get(id) ?? -Infinity));
		const items: VisibleItem[] = [];
		for (const [id, purchasedAt] of merged) {
			const video = this.videos.get(id);
			if (video) items.push({ video, purchasedAt });
		}
		items.sort((a, b) =>
			compareVisible(
				{ purchasedAt: a.purchasedAt, key: a.video.id },
				{ purchasedAt: b.purchasedAt, key: b.video.id },
			),
		);
		this.visibleCache.set(account.id, { stamp, items });
		return items;
	}

	canSee(account: PartnerAccount, videoId: string): boolean {
		if (account.licences.has(videoId)) return true;
		const owner = account.ownerId ? this.partnerAccounts.get(account.ownerId) : undefined;
		return owner?.licences.has(videoId) ?? false;
	}

	unlicensedVideoKey(key: string): string {
		const account = this.partnerAccountOfKey(key);
		const v = this.searchable.find((x) => !this.canSee(account, x.id));
		if (!v) throw new Error('every catalogue video is licensed by this account');
		return v.id;
	}

	// ---------------------------------------------------------------- Enterprise

	createEnterpriseAccount(o: { tier?: Tier; subscription?: boolean } = {}): { key: string } {
		const n = ++this.accountCounter;
		let key = `ent_${base62(this.rng, 28)}`;
		while (this.enterpriseAccounts.has(key)) key = `ent_${base62(this.rng, 28)}`;
		const tier = o.tier ?? 'starter';
		this.enterpriseAccounts.set(key, {
			key,
			customerId: `cust_${String(n).padStart(6, '0')}`,
			tier,
			subscription: o.subscription ?? true,
			downloads: 0,
			perVideo: new Map(),
			activeCollections: 1,
			wildcard: tier === 'enterprise',
		});
		return { key };
	}

	enterpriseAccount(key: string): EnterpriseAccount {
		const a = this.enterpriseAccounts.get(key);
		if (!a) throw new Error('unknown Enterprise key');
		return a;
	}

	addEnterpriseVideos(list: Array<Partial<EnterpriseVideo>>): string[] {
		return list.map((p) => {
			const n = ++this.videoCounter;
			const id = p.id ?? `added-${n}`;
			if (id.length < 1 || id.length > 50 || !ID_PATTERN.test(id))
				throw new Error(`invalid video id ${JSON.stringify(id)}`);
			if (this.videos.has(id)) throw new Error(`video ${id} already exists`);
			const index = this.seededSize + n;
			const video = addedVideo(p, { id, n, index, now: () => this.now(), rng: this.rng });
			this.videos.set(id, video);
			this.searchable.push(video);
			this.catalogueVersion++;
			return id;
		});
	}

	// ---------------------------------------------------------------- files

	video(idOrKey: string): CatalogueVideo | undefined {
		return this.videos.get(idOrKey);
	}

	file(idOrKey: string): VideoFile {
		const v = this.videos.get(idOrKey);
		if (!v) throw new Error(`unknown video ${JSON.stringify(idOrKey)}`);
		return { ...v.file, ...this.fileOverrides.get(idOrKey) };
	}

	setVideoFile(idOrKey: string, f: Partial<VideoFile>): void {
		if (!this.videos.has(idOrKey)) throw new Error(`unknown video ${JSON.stringify(idOrKey)}`);
		const defined = Object.fromEntries(
			Object.entries(f).filter(([, v]) => v !== undefined),
		) as Partial<VideoFile>;
		this.fileOverrides.set(idOrKey, { ...this.fileOverrides.get(idOrKey), ...defined });
	}
}
