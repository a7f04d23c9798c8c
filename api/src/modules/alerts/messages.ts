/**
 * The texts of alert e-mails: plain text plus a simple HTML part with the same content. Each names
 * the source and what happened, with the figures and the day; every alert carries its one-click
 * unsubscribe link (in the body and as RFC 8058 List-Unsubscribe + List-Unsubscribe-Post headers).
 */
import { WARNING_TITLES } from '@yield/contract';
import { escapeHtml } from '../../platform/email-links/html.ts';
import type { AlertKind } from './store.ts';
import type { Crossing } from './crossings.ts';

export interface MailText {
  subject: string;
  text: string;
  html: string;
}

const KIND_TEXT: Record<AlertKind, string> = {
  'below-base': 'its risk-adjusted 30-day APR falls below its base rate’s',
  incident: 'an incident opens',
  stale: 'its data stops arriving (stale)',
  warning:
    'a warning is detected from its data (deposits leaving fast, off its peg, APR spike, feeds disagree)',
};

const usd = (n: number) => `$${Math.round(n).toLocaleString('en-US')}`;
const pct1 = (n: number) => `${Math.round(n * 10) / 10}%`;

/** The figures of a detected warning (api/src/engine/warnings.ts) in words, with their units. */
const FIGURE_TEXT: Record<string, (n: number) => string> = {
  tvl: (n) => `TVL ${usd(n)}`,
  tvl7dAgo: (n) => `TVL 7 days before ${usd(n)}`,
  drop7dPct: (n) => `down ${pct1(n)} over 7 days`,
  tvl30dAgo: (n) => `TVL 30 days before ${usd(n)}`,
  drop30dPct: (n) => `down ${pct1(n)} over 30 days`,
  price: (n) => `price $${n}`,
  deviationPct: (n) => `${pct1(Math.abs(n))} ${n < 0 ? 'below' : 'above'} $1`,
  ethPrice: (n) => `ETH $${n}`,
  ratio: (n) => `${n} ETH`,
  belowPct: (n) => `${pct1(n)} below ETH`,
  apr: (n) => `day's APR ${pct1(n)}`,
  mean30d: (n) => `30-day mean ${pct1(n)}`,
  stdDev30d: (n) => `standard deviation ${n} points`,
  sigmas: (n) => `${n} standard deviations above the mean`,
};

const figuresText = (figures: Record<string, number>) =>
  Object.entries(figures)
    .map(([key, n]) => FIGURE_TEXT[key]?.(n) ?? `${key} ${n}`)
    .join(', ');

const pct = (n: number) => `${n.toFixed(2)}%`;

function html(paragraphs: string[]): string {
  const body = paragraphs.map((p) => `<p>${p}</p>`).join('\n');
  return `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5;color:#1f1f1f">\n${body}\n</body></html>\n`;
}

export function confirmationMail(input: {
  siteTitle: string;
  sourceName: string;
  kind: AlertKind;
  confirmUrl: string;
  unsubscribeUrl: string;
}): MailText {
  const what = `about ${input.sourceName} when ${KIND_TEXT[input.kind]}`;
  return {
    subject: `Confirm your ${input.siteTitle} alert for ${input.sourceName}`,
    text: [
      `Someone (hopefully you) asked ${input.siteTitle} to send an e-mail to this address ${what}.`,
      `Confirm the alert by opening this link (valid 7 days):`,
      input.confirmUrl,
      `If you did not ask for it, ignore this e-mail: nothing will be sent.`,
      `Changed your mind after confirming? Unsubscribe (one click): ${input.unsubscribeUrl}`,
    ].join('\n\n'),
    html: html([
      `Someone (hopefully you) asked ${escapeHtml(input.siteTitle)} to send an e-mail to this address ${escapeHtml(what)}.`,
      `<a href="${escapeHtml(input.confirmUrl)}">Confirm the alert</a> (the link is valid 7 days).`,
      `If you did not ask for it, ignore this e-mail: nothing will be sent.`,
      `Changed your mind after confirming? <a href="${escapeHtml(input.unsubscribeUrl)}">Unsubscribe</a> (one click).`,
    ]),
  };
}

export function mailingListConfirmationMail(input: {
  siteTitle: string;
  confirmUrl: string;
  unsubscribeUrl: string;
}): MailText {
  return {
    subject: `Confirm your subscription to the ${input.siteTitle} newsletter`,
    text: [
      `Someone (hopefully you) asked to add this address to the ${input.siteTitle} newsletter.`,
      `Confirm the subscription by opening this link (valid 7 days):`,
      input.confirmUrl,
      `If you did not ask for it, ignore this e-mail: the address is not added and nothing more is sent.`,
      `Changed your mind after confirming? Unsubscribe (one click): ${input.unsubscribeUrl}`,
    ].join('\n\n'),
    html: html([
      `Someone (hopefully you) asked to add this address to the ${escapeHtml(input.siteTitle)} newsletter.`,
      `<a href="${escapeHtml(input.confirmUrl)}">Confirm the subscription</a> (the link is valid 7 days).`,
      `If you did not ask for it, ignore this e-mail: the address is not added and nothing more is sent.`,
      `Changed your mind after confirming? <a href="${escapeHtml(input.unsubscribeUrl)}">Unsubscribe</a> (one click).`,
    ]),
  };
}

function facts(c: Crossing): { subject: string; lines: string[] } {
  if (c.figures) {
    const f = c.figures;
    return {
      subject: `${c.sourceName} fell below the ${f.baseName}`,
      lines: [
        `The risk-adjusted 30-day APR of ${c.sourceName} is below its base rate since ${c.day}.`,
        `As of ${f.asOf}: ${c.sourceName} ${pct(f.sourceRa)}, ${f.baseName} ${pct(f.baseRa)} (risk-adjusted 30-day APR, method ra30-v1).`,
      ],
    };
  }
  if (c.incident) {
    return {
      subject: `Incident on ${c.sourceName}: ${c.incident.kind}`,
      lines: [
        `An incident is open on ${c.sourceName} since ${c.day} (${c.incident.kind}): ${c.incident.summary}`,
        `Report: ${c.incident.link}`,
      ],
    };
  }
  if (c.warning) {
    const title = WARNING_TITLES[c.warning.kind];
    return {
      subject: `${c.sourceName}: ${title} (detected from data)`,
      lines: [
        `A warning opened on ${c.sourceName} on ${c.day}, detected from its data (not an incident written by our team): ${title}.`,
        c.warning.text,
        `Figures on ${c.day}: ${figuresText(c.warning.figures)}.`,
      ],
    };
  }
  return {
    subject: `${c.sourceName}: data is stale`,
    lines: [
      `The daily data of ${c.sourceName} stopped arriving: its newest day is ${c.day}, so its figures describe a past window.`,
    ],
  };
}

export function alertMail(input: {
  crossing: Crossing;
  siteTitle: string;
  pageUrl: string;
  unsubscribeUrl: string;
}): MailText {
  const { subject, lines } = facts(input.crossing);
  const footer = `You get this e-mail because you subscribed to ${input.siteTitle} alerts for ${input.crossing.sourceName}.`;
  return {
    subject,
    text: [
      ...lines,
      `Details: ${input.pageUrl}`,
      footer,
      `Unsubscribe (one click): ${input.unsubscribeUrl}`,
    ].join('\n\n'),
    html: html([
      ...lines.map(escapeHtml),
      `<a href="${escapeHtml(input.pageUrl)}">See ${escapeHtml(input.crossing.sourceName)} on ${escapeHtml(input.siteTitle)}</a>`,
      escapeHtml(footer),
      `<a href="${escapeHtml(input.unsubscribeUrl)}">Unsubscribe</a> (one click).`,
    ]),
  };
}
