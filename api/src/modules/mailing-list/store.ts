/** The mailing list with its double opt-in. */
import type { ConfirmationDecision } from '../confirmations/index.ts';

export interface NewSubscriber {
  /** Stored as given; "already on the list" compares addresses in any letter case. */
  email: string;
  source: string;
  createdAt: string;
}

/** A mailing-list sign-up with its double opt-in state. */
export interface MailingListEntry {
  id: string;
  email: string;
  source: string;
  createdAt: string;
  /** null until the address confirms. */
  confirmedAt: string | null;
}

export interface MailingListStore {
  /** Adds an address to the mailing list unless it is on it in any letter case. */
  addSubscriber(entry: NewSubscriber): Promise<{ created: boolean }>;

  /**
   * A request to sign up, in one step: an address on the list in any case keeps its entry; when
   * it is not confirmed and the caps allow it (confirmationAllowed), a confirmation e-mail is
   * counted and `mail` is true. Every call writes once whatever the outcome.
   */
  requestMailingListConfirmation(
    entry: MailingListEntry,
    now: Date,
  ): Promise<ConfirmationDecision<MailingListEntry>>;
  /** Confirms a sign-up (once; a confirmed one stays as it was); null when the id is unknown. */
  confirmMailingListEntry(input: { id: string; now: Date }): Promise<MailingListEntry | null>;
  /** Removes a sign-up from the list; false when the id is unknown. */
  removeMailingListEntry(id: string): Promise<boolean>;
}
