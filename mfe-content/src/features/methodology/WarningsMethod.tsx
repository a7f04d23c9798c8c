/**
 * The /methodology page's section on the warnings detected from data, in plain words (the
 * reference: docs/methodology.md, "Detected warnings"). The thresholds are the operators'
 * (settings.json `warnings`, served by GET /api/settings), shown with the day they were reviewed.
 */
import { useSiteSettings } from '@yield/platform';
import { formatDay } from '@yield/ui';

export function WarningsMethod() {
  const t = useSiteSettings()?.warnings;
  return (
    <section aria-labelledby="warnings-title">
      <h2 id="warnings-title">Warnings detected from data</h2>
      <p>
        Besides the incidents our team writes up, the site watches the data itself for the signs
        that came before real losses in the past: deposits leaving fast, a token trading away from
        what it should be worth, and a yield that suddenly jumps. Such a warning is labelled
        &ldquo;detected from data&rdquo; and shown apart from the incidents.
      </p>
      <ul>
        <li>
          <strong>Outflow</strong>: the deposits (TVL) fell by at least{' '}
          {t ? `${t.outflow7d}%` : 'a set share'} within 7 days, or by at least{' '}
          {t ? `${t.outflow30d}%` : 'a larger share'} within 30 days.
        </li>
        <li>
          <strong>Depeg</strong>: a dollar token traded more than{' '}
          {t ? `${t.depegStable}%` : 'a set share'} away from $1 on a day, or an ETH token more than{' '}
          {t ? `${t.depegLst}%` : 'a set share'} below the price of ETH. We price the token that
          should hold the peg: for a savings token that grows in value by design, the dollar it is
          redeemed for.
        </li>
        <li>
          <strong>Spike</strong>: the newest day&apos;s APR is more than{' '}
          {t ? t.spikeSigma : 'several'} standard deviations above its average of the 30 days
          before. The 30-day APR already damps such a spike, so this warning only says that the
          newest day is not typical.
        </li>
      </ul>
      <p>
        A warning opens on the first day its rule holds and closes by itself once the data has been
        back within the threshold for {t ? t.closeAfterDays : 'a few'} days in a row. While an
        outflow or depeg warning is open, the source is never marked GREAT. Our team can dismiss a
        warning it judges wrong, with a dated note saying why; the warning then stays visible with
        that note.
      </p>
      {t ? <p>Thresholds reviewed {formatDay(t.verified)}.</p> : null}
    </section>
  );
}
