/**
 * Premium of the file store: `invites.json` and `users.json`, their journal records and their
 * reducers. A redemption (a use spent, a user created) is one journal line that both files apply.
 * Operator commands, which do not own the journal, edit `invites.json` as an operator would.
 */
import { z } from 'zod';
import { inviteUsable } from './invite-codes.ts';
import type { ApiStore, DataFiles } from '../../composition/data-files.ts';
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
  InviteLogin,
  PremiumStore,
  Redemption,
} from './store.ts';
import type { JournalEngine } from '../../platform/files/journal-engine.ts';

export const premiumRecords = {
  redeem: z.object({
    t: z.literal('redeem'),
    inviteId: z.string(),
    user: usersFileSchema.shape.users.element,
  }),
  login: z.object({ t: z.literal('login'), userId: z.string(), email: z.string(), at: z.string() }),
  invite: z.object({ t: z.literal('invite'), invite: invitesFileSchema.shape.invites.element }),
  inviteDisable: z.object({ t: z.literal('inviteDisable'), id: z.string() }),
};
type Records = { [T in keyof typeof premiumRecords]: z.infer<(typeof premiumRecords)[T]> };
type InviteChange = Records['redeem' | 'invite' | 'inviteDisable'];
type UserChange = Records['redeem' | 'login'];

export class FilePremium implements PremiumStore {
  private readonly invites = new Map<string, InviteRecord>();
  private readonly usersById = new Map<string, UserRecord>();
  private readonly usersByInvite = new Map<string, UserRecord[]>();

  constructor(
    private readonly engine: JournalEngine<DataFiles>,
    private readonly store: ApiStore,
  ) {
    engine.declare(premiumRecords);
    engine.register<InvitesFile, InviteChange>({
      key: 'invites',
      types: ['redeem', 'invite', 'inviteDisable'],
      apply: (data, change) => this.applyToInvites(data, change),
      rebuild: (data) => {
        this.invites.clear();
        for (const i of data.invites) this.invites.set(i.id, i);
      },
      freeze: (data) => ({ invites: data.invites.map((i) => ({ ...i })) }),
    });
    engine.register<UsersFile, UserChange>({
      key: 'users',
      types: ['redeem', 'login'],
      apply: (data, change) => this.applyToUsers(data, change),
      rebuild: (data) => {
        this.usersById.clear();
        this.usersByInvite.clear();
        for (const u of data.users) this.addUser(u);
      },
      freeze: (data) => ({ users: data.users.map((u) => ({ ...u })) }),
    });
  }

  private addUser(u: UserRecord): void {
    this.usersById.set(u.userId, u);
    const list = this.usersByInvite.get(u.inviteId);
    if (list) list.push(u);
    else this.usersByInvite.set(u.inviteId, [u]);
  }

  private applyToInvites(data: InvitesFile, change: InviteChange): void {
    if (change.t === 'redeem') {
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

  private applyToUsers(data: UsersFile, change: UserChange): void {
    if (change.t === 'redeem') {
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
    this.engine.writable('users');
    const mine = this.usersByInvite.get(input.inviteId) ?? [];
    const own =
      input.tokenUserId === null ? undefined : mine.find((u) => u.userId === input.tokenUserId);
    if (own) {
      const durable = this.login(own, input.email, input.now);
      const user = { ...own };
      await durable;
      return { ok: true, user, created: false };
    }
    const email = input.email.toLowerCase();
    const bound = mine.find((u) => u.email !== null && u.email.toLowerCase() === email);
    if (bound) return { ok: false, reason: 'email_taken', user: { ...bound } };
    const invite = this.invites.get(input.inviteId);
    if (!invite || invite.disabled) return { ok: false, reason: 'invalid' };
    const check = inviteUsable(invite, input.now);
    if (!check.ok) return { ok: false, reason: check.reason };
    const redeemed = await this.redeem(input.inviteId, input.newUser, input.now);
    return redeemed.ok ? { ...redeemed, created: true } : redeemed;
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

  /** Spends a use and creates the user: one journal line, so both or neither survive a crash. */
  private async redeem(inviteId: string, user: UserRecord, now: Date): Promise<Redemption> {
    this.engine.writable('invites');
    this.engine.writable('users');
    const invite = this.invites.get(inviteId);
    if (!invite || invite.disabled) return { ok: false, reason: 'invalid' };
    const check = inviteUsable(invite, now);
    if (!check.ok) return { ok: false, reason: check.reason };
    const change: Records['redeem'] = { t: 'redeem', inviteId, user: { ...user } };
    this.engine.apply(change);
    await this.engine.record(change);
    return { ok: true, user: { ...user } };
  }
}
