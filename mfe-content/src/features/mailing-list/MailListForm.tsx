import { useId, useRef, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { mailSignupMutation } from '@yield/platform';
import { toast, warmUpToasts } from '@yield/ui';
import ui from '../../shared/components/components.module.css';

/*
 * The mailing-list toasts, word for word the same on every sign-up form. A sign-up counts once the
 * saver opens the link of the confirmation e-mail (double opt-in), so the success toast asks for it.
 */
export const MAIL_LIST_SUCCESS = {
  title: 'Success!',
  description:
    "You've been added to our mailing list. Please confirm from your inbox: open the link in the e-mail we just sent you.",
};
export const MAIL_LIST_FAILURE = {
  title: 'Error',
  description: 'Failed to add to mailing list. Please try again later.',
};

interface MailListFormProps {
  /** Where the sign-up came from, stored with the address (API: letters, digits, - _ . / space). */
  source: string;
  buttonLabel: string;
  required?: boolean;
}

/**
 * E-mail sign-up posting to /api/addToMailList. The browser's own email check is the only client
 * rule; the server validates again. Success clears the field.
 */
export function MailListForm({ source, buttonLabel, required = true }: MailListFormProps) {
  const inputId = useId();
  const [email, setEmail] = useState('');
  const inputRef = useRef<HTMLInputElement>(null);
  const subscribe = useMutation({
    ...mailSignupMutation(),
    onSuccess: () => {
      setEmail('');
      toast.success(MAIL_LIST_SUCCESS.title, MAIL_LIST_SUCCESS.description);
    },
    onError: () => toast.error(MAIL_LIST_FAILURE.title, MAIL_LIST_FAILURE.description),
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const address = email.trim();
    if (!address) {
      // Without the browser's required check (notify-me), point the user at the empty field.
      inputRef.current?.focus();
      return;
    }
    subscribe.mutate({ email: address, source });
  };

  return (
    <form className={ui.form} onSubmit={submit} aria-busy={subscribe.isPending}>
      <div className={ui.field}>
        <label htmlFor={inputId}>Email address</label>
        <input
          ref={inputRef}
          id={inputId}
          className={ui.input}
          type="email"
          name="email"
          autoComplete="email"
          inputMode="email"
          placeholder="you@example.com"
          required={required}
          value={email}
          onFocus={warmUpToasts}
          onChange={(event) => setEmail(event.target.value)}
        />
      </div>
      <button
        type="submit"
        className={`btn btn-primary ${ui.formButton}`}
        disabled={subscribe.isPending}
      >
        {buttonLabel}
      </button>
    </form>
  );
}
