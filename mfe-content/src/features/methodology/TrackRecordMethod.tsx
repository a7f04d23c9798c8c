/**
 * The /methodology page's section on the track record (/track-record), in plain words (the
 * reference: docs/methodology.md, "Track record").
 */
import { Link } from 'react-router-dom';

export function TrackRecordMethod() {
  return (
    <section aria-labelledby="track-record-title">
      <h2 id="track-record-title">Track record</h2>
      <p>
        The <Link to="/track-record">track record</Link> checks the ranking against what happened
        next. On the first day of each month it takes, for stablecoins and for crypto, the source
        ranked first by risk-adjusted APR and the source with the highest 30-day APR, exactly as the
        comparison published them that day: from the history up to that day, with the scores,
        incidents and warnings known by then. Nothing learnt later changes a pick.
      </p>
      <ul>
        <li>
          Each pick is held from the next day to the first day of the next month. It earns its daily
          APRs, compounded, and gains or loses the change in value of its token against its unit
          (the dollar, or ETH), so a depeg counts as the loss it was.
        </li>
        <li>
          An incident or a depeg in a month with no token prices to measure it is marked on that
          month: its loss is not in the figure.
        </li>
        <li>
          The DeFi Base Rate of the type earns its own daily APRs over the same days. Each line
          starts with 10,000 and moves to every month&apos;s pick; fees, gas and taxes are left out.
        </li>
      </ul>
      <p>
        The same page follows the scanner&apos;s top 10 pools. On the first day of each month it
        takes the 10 pools the scanner ranks first by risk-adjusted APR, each computed with its
        current method from the pool&apos;s own daily history up to that day only (pools with 30
        days of it, outliers left out), and the 10 with the highest APY that day. Each group is held
        in equal parts for the month and paid the mean of its pools&apos; daily APYs; a day a pool
        has no data for counts as 0. Stablecoin pools are set against the stablecoin DeFi Base Rate
        and the others against the crypto one, as in the scanner. Until the pools&apos; histories
        cover a whole month, the page says so instead of showing figures.
      </p>
      <p>
        The rankings of any past day are also in the API (<code>?asOf=YYYY-MM-DD</code>), and the
        track record downloads as CSV from its page.
      </p>
    </section>
  );
}
