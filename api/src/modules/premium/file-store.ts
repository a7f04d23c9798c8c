/**
 * Premium of the file store: `invites.json` and `users.json`, their journal records and their
 * reducers. A redemption (a use spent, a user created) is one journal line that both files apply.
 * Used sign-in links are kept in `users.json` until they expire. The e-mails of sign-in links are
 * counted with the other confirmation e-mails in `alerts.json`, which the alerts' reducer applies:
 * a `signInMail` line, or `redeemSignIn` when premiumLogin also redeemed (one line all three files
 * apply, so every premiumLogin without the caller's own user writes exactly one line). Operator
 * commands, which do not own the journal, edit `invites.json` as an operator would.
 */
import { z } from 'zod';
import { inviteUsable } from './invite-codes.ts';
import type { FilesView, FileSpec } from '../../platform/files/data-store.ts';
import {
  invitesFileSchema,
  usersFileSchema,
  type InviteRecord,
  type InvitesFile,
  type UserRecord,
  type UsersFile,
} from './schemas.ts';
import type {
  Activation,
  InviteEmailActivation,
  InviteFailure,
  InviteLogin,
  PremiumStore,
  Redemption,
  SignInLinkUse,
} from './store.ts';
import type { ModuleJournal } from '../../platform/files/journal-engine.ts';
import {
  confirmationAllowed,
  PREMIUM_SIGN_IN_SCOPE,
  type ConfirmationMail,
} from '../confirmations/index.ts';
import { sharedRecords, signInMailFields, type SignInMailRecord } from '../confirmations/index.ts';

/** The files premium's store reads and writes: its own, and alerts.json (the sign-in links' caps). */
type PremiumFiles = {
  invites: FileSpec<InvitesFile>;
  users: FileSpec<UsersFile>;
  alerts: FileSpec<unknown>;
};

export const premiumRecords = {
  redeem: z.object({
    t: z.literal('redeem'),
    inviteId: z.string(),
    user: usersFileSchema.shape.users.element,
  }),
  login: z.object({ t: z.literal('login'), userId: z.string(), email: z.string(), at: z.string() }),
  invite: z.object({ t: z.literal('invite'), invite: invitesFileSchema.shape.invites.element }),
  inviteDisable: z.object({ t: z.literal('inviteDisable'), id: z.string() }),
  /** A sign-in link used at `at`; the used links expired by then are dropped. */
  signInUse: z.object({
    t: z.literal('signInUse'),
    id: z.string(),
    userId: z.string(),
    expiresAt: z.string(),
    at: z.string(),
  }),
  signInMail: sharedRecords.signInMail,
  /** A redemption by premiumLogin and its sign-in link's e-mail (counted in alerts.json): one line. */
  redeemSignIn: z.object({
    t: z.literal('redeemSignIn'),
    inviteId: z.string(),
    user: usersFileSchema.shape.users.element,
    ...signInMailFields,
  }),
};
type Records = { [T in keyof typeof premiumRecords]: z.infer<(typeof premiumRecords)[T]> };
type InviteChange = Records['redeem' | 'redeemSignIn' | 'invite' | 'inviteDisable'];
type UserChange = Records['redeem' | 'redeemSignIn' | 'login' | 'signInUse'];
type Redeemable = { ok: true; change: Records['redeem'] } | { ok: false; reason: InviteFailure };

export class FilePremium implements PremiumStore {
  private readonly invites = new Map<string, InviteRecord>();
  private readonly usersById = new Map<string, UserRecord>();
  private readonly usersByInvite = new Map<string, UserRecord[]>();
  /** Ids of the sign-in links used and not yet expired. */
  private readonly usedLinks = new Set<string>();

  /** `confirmations`: the e-mails counted for a lower-cased address (the alerts' file-store.ts). */
  constructor(
    private readonly engine: ModuleJournal<PremiumFiles>,
    private readonly store: FilesView<PremiumFiles>,
    private readonly confirmations: (email: string) => readonly ConfirmationMail[],
  ) {
    engine.declare(premiumRecords);
    engine.register<InvitesFile, InviteChange>({
      key: 'invites',
      types: ['redeem', 'redeemSignIn', 'invite', 'inviteDisable'],
      apply: (data, change) => this.applyToInvites(data, change),
      rebuild: (data) => {
        this.invites.clear();
        for (const i of data.invites) this.invites.set(i.id, i);
      },
      freeze: (data) => ({ invites: data.invites.map((i) => ({ ...i })) }),
    });
    engine.register<UsersFile, UserChange>({
      key: 'users',
      types: ['redeem', 'redeemSignIn', 'login', 'signInUse'],
      apply: (data, change) => this.applyToUsers(data, change),
      rebuild: (data) => {
        this.usersById.clear();
        this.usersByInvite.clear();
        for (const u of data.users) this.addUser(u);
        this.indexLinks(data);
      },
      freeze: (data) => ({
        users: data.users.map((u) => ({ ...u })),
        ...(data.signInLinks ? { signInLinks: data.signInLinks.map((l) => ({ ...l })) } : {}),
      }),
    });
  }

  private addUser(u: UserRecord): void {
    this.usersById.set(u.userId, u);
    const list = this.usersByInvite.get(u.inviteId);
    if (list) list.push(u);
    else this.usersByInvite.set(u.inviteId, [u]);
  }

  private applyToInvites(data: InvitesFile, change: InviteChange): void {
    if (change.t === 'redeem' || change.t === 'redeemSignIn') {
      const invite = this.invites.get(change.inviteId);
      if (invite) invite.uses++;
    } else if (change.t === 'invite') {
      if (this.invites.has(change.invite.id)) return;
      const invite = { ...change.invite };
      this.invites.set(invite.id, invite);
      data.invites.push(invite);
    } else {
      const invite = this.invites.get(change.id);
      if (invite) invite.disabled = true;
    }
  }

  private indexLinks(data: UsersFile): void {
    this.usedLinks.clear();
    for (const l of data.signInLinks ?? []) this.usedLinks.add(l.id);
  }

  private applyToUsers(data: UsersFile, change: UserChange): void {
    if (change.t === 'signInUse') {
      const at = Date.parse(change.at);
      const kept = (data.signInLinks ?? []).filter((l) => Date.parse(l.expiresAt) > at);
      if (!this.usedLinks.has(change.id))
        kept.push({
          id: change.id,
          userId: change.userId,
          expiresAt: change.expiresAt,
          usedAt: change.at,
        });
      data.signInLinks = kept;
      this.indexLinks(data);
    } else if (change.t === 'redeem' || change.t === 'redeemSignIn') {
      if (this.usersById.has(change.user.userId)) return;
      const user = { ...change.user };
      this.addUser(user);
      data.users.push(user);
    } else {
      const user = this.usersById.get(change.userId);
      if (!user) return;
      user.email = change.email;
      user.lastLoginAt = change.at;
    }
  }

  private refresh(): Promise<unknown> {
    return Promise.all([this.store.refreshFile('invites'), this.store.refreshFile('users')]);
  }

  async listInvites(): Promise<InviteRecord[]> {
    await this.store.refreshFile('invites');
    return (this.store.get('invites')?.invites ?? [])
      .filter((i) => !i.disabled)
      .map((i) => ({ ...i }));
  }

  async createInvite(invite: InviteRecord): Promise<void> {
    if (!this.engine.writes) {
      // Operator command: an edit of invites.json, as an operator would make it by hand.
      await this.store.mutate('invites', (data) => {
        if (data.invites.some((i) => i.id === invite.id))
          return { result: undefined, changed: false };
        data.invites.push({ ...invite });
        return { result: undefined, changed: true };
      });
      return;
    }
    await this.store.refreshFile('invites');
    this.engine.writable('invites');
    if (this.invites.has(invite.id)) return;
    const change: Records['invite'] = { t: 'invite', invite: { ...invite } };
    this.engine.apply(change);
    await this.engine.record(change);
    // Operators expect to see a new code in invites.json at once.
    await this.engine.compact();
  }

  async redeemInvite(input: {
    inviteId: string;
    user: UserRecord;
    now: Date;
  }): Promise<Redemption> {
    await this.refresh();
    return this.redeem(input.inviteId, input.user, input.now);
  }

  private login(user: UserRecord, email: string, now: Date): Promise<void> {
    const change: Records['login'] = {
      t: 'login',
      userId: user.userId,
      email,
      at: now.toISOString(),
    };
    this.engine.apply(change);
    return this.engine.record(change);
  }

  async loginWithInvite(input: InviteLogin): Promise<Redemption> {
    await this.refresh();
    this.engine.writable('users');
    const mine = this.usersByInvite.get(input.inviteId) ?? [];
    const found =
      mine.find((u) => u.email === input.email) ??
      mine.find((u) => input.tokenUserId !== null && u.userId === input.tokenUserId) ??
      mine.findLast((u) => u.email === null);
    if (!found) return this.redeem(input.inviteId, input.newUser, input.now);
    const durable = this.login(found, input.email, input.now);
    const user = { ...found };
    await durable;
    return { ok: true, user };
  }

  async activateInviteEmail(input: InviteEmailActivation): Promise<Activation> {
    await this.refresh();
    await this.store.refreshFile('alerts');
    this.engine.writable('users');
    const mine = this.usersByInvite.get(input.inviteId) ?? [];
    const own =
      input.tokenUserId === null ? undefined : mine.find((u) => u.userId === input.tokenUserId);
    if (own) {
      const durable = this.login(own, input.email, input.now);
      const user = { ...own };
      await durable;
      return { ok: true, user, created: false, signInMail: false };
    }
    // From here to the append nothing awaits: the decisions and their change are one step, and
    // every outcome writes one line (a redemption with its e-mail, or the e-mail's request alone).
    const email = input.email.toLowerCase();
    const bound = mine.find((u) => u.email !== null && u.email.toLowerCase() === email);
    const redemption = bound ? null : this.redemption(input.inviteId, input.newUser, input.now);
    const signIn = this.signInRequest(email, bound !== undefined || redemption!.ok, input.now);
    const { t: _t, ...mailPart } = signIn;
    const change: Records['redeemSignIn'] | SignInMailRecord = redemption?.ok
      ? { ...redemption.change, ...mailPart, t: 'redeemSignIn' }
      : signIn;
    this.engine.apply(change);
    await this.engine.record(change);
    const signInMail = signIn.mail;
    if (bound) return { ok: false, reason: 'email_taken', user: { ...bound }, signInMail };
    if (!redemption!.ok) return { ...redemption!, signInMail };
    return { ok: true, user: { ...input.newUser }, created: true, signInMail };
  }

  /** The record of a request for a sign-in link's e-mail, with the caps' decision (not applied). */
  private signInRequest(email: string, wanted: boolean, now: Date): SignInMailRecord {
    this.engine.writable('alerts');
    const mail =
      wanted && confirmationAllowed(this.confirmations(email), PREMIUM_SIGN_IN_SCOPE, now);
    return { t: 'signInMail', email, mail, at: now.toISOString() };
  }

  async requestSignInMail(input: { email: string; now: Date }): Promise<boolean> {
    await this.store.refreshFile('alerts');
    const change = this.signInRequest(input.email.toLowerCase(), true, input.now);
    // Only an e-mail counted changes anything (this request tells nothing worth hiding).
    if (!change.mail) return false;
    this.engine.apply(change);
    await this.engine.record(change);
    return true;
  }

  async consumeSignInLink(input: SignInLinkUse): Promise<boolean> {
    await this.store.refreshFile('users');
    this.engine.writable('users');
    const key = `sign-in:${input.id}`;
    if (this.usedLinks.has(input.id)) {
      // The first use may still be on its way to the disk.
      await this.engine.pending(key);
      return false;
    }
    const change: Records['signInUse'] = {
      t: 'signInUse',
      id: input.id,
      userId: input.userId,
      expiresAt: input.expiresAt.toISOString(),
      at: input.now.toISOString(),
    };
    this.engine.apply(change);
    await this.engine.recordKeyed(key, change);
    return true;
  }

  async activePremiumUser(userId: string): Promise<UserRecord | null> {
    // A hand edit of users.json or invites.json (a deleted user, a disabled invite) counts at once.
    await this.refresh();
    const user = this.engine.writes
      ? this.usersById.get(userId)
      : this.store.get('users')?.users.find((u) => u.userId === userId);
    if (!user) return null;
    const invite = this.engine.writes
      ? this.invites.get(user.inviteId)
      : this.store.get('invites')?.invites.find((i) => i.id === user.inviteId);
    return invite && !invite.disabled ? { ...user } : null;
  }

  async disableInvite(id: string): Promise<boolean> {
    if (!this.engine.writes) {
      // Operator command: an edit of invites.json, as an operator would make it by hand.
      return this.store.mutate('invites', (data) => {
        const invite = data.invites.find((i) => i.id === id);
        if (!invite) return { result: false, changed: false };
        if (invite.disabled) return { result: true, changed: false };
        invite.disabled = true;
        return { result: true, changed: true };
      });
    }
    await this.store.refreshFile('invites');
    this.engine.writable('invites');
    const invite = this.invites.get(id);
    if (!invite) return false;
    if (invite.disabled) return true;
    const change: Records['inviteDisable'] = { t: 'inviteDisable', id };
    this.engine.apply(change);
    await this.engine.record(change);
    await this.engine.compact();
    return true;
  }

  /** Whether the invite may be redeemed now, with the change that does it (not applied). */
  private redemption(inviteId: string, user: UserRecord, now: Date): Redeemable {
    this.engine.writable('invites');
    this.engine.writable('users');
    const invite = this.invites.get(inviteId);
    if (!invite || invite.disabled) return { ok: false, reason: 'invalid' };
    const check = inviteUsable(invite, now);
    if (!check.ok) return { ok: false, reason: check.reason };
    return { ok: true, change: { t: 'redeem', inviteId, user: { ...user } } };
  }

  /** Spends a use and creates the user: one journal line, so both or neither survive a crash. */
  private async redeem(inviteId: string, user: UserRecord, now: Date): Promise<Redemption> {
    const redemption = this.redemption(inviteId, user, now);
    if (!redemption.ok) return redemption;
    this.engine.apply(redemption.change);
    await this.engine.record(redemption.change);
    return { ok: true, user: { ...user } };
  }
}
