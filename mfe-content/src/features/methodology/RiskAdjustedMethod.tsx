/**
 * The sections of the /methodology page on the risk-adjusted 30-day APR (`ra30-v1`) and the
 * DeFi Base Rate, in plain words (the reference: docs/methodology.md). Prose: one component per
 * section, in the page's order.
 */
import { Link } from 'react-router-dom';
import { METHOD_VERSION, POOL_METHOD_VERSION } from '@yield/contract/constants';
import { RA30_CHARGES } from '@yield/ui';
import ui from '../../shared/components/components.module.css';
import { WorkedExample } from './WorkedExample.tsx';

/* The charge tables of ra30-v1 (docs/methodology.md, step 4), in percentage points a year. */
const SAFETY_CHARGES = [
  { score: 5, charge: '0.20' },
  { score: 4, charge: '0.75' },
  { score: 3, charge: '1.50' },
  { score: 2, charge: '3.00' },
  { score: 1, charge: '6.00' },
];
const LIQUIDITY_CHARGES = [
  { score: 5, charge: '0.00', meaning: 'instant exit at full value' },
  { score: 4, charge: '0.10', meaning: 'exit within a day' },
  { score: 3, charge: '0.30', meaning: 'exit within days, or a small discount' },
  { score: 2, charge: '0.75', meaning: 'queues or a noticeable discount' },
  { score: 1, charge: '2.00', meaning: 'locked, or exit only at a real loss' },
];

/** One score-to-charge table of the method (safety or liquidity). */
function ChargeTable({
  caption,
  scoreLabel,
  rows,
}: {
  caption: string;
  scoreLabel: string;
  rows: readonly { score: number; charge: string; meaning?: string }[];
}) {
  return (
    <div className={ui.tableWrap}>
      <table className={ui.table}>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{scoreLabel}</th>
            <th scope="col" className={ui.num}>
              Charge
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.score}>
              <th scope="row">
                {row.score}
                {row.meaning ? (
                  <>
                    {' '}
                    <span className={ui.small}>({row.meaning})</span>
                  </>
                ) : null}
              </th>
              <td className={ui.num}>{row.charge}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The short version: each risk as a cost, and what is left. */
export function ShortVersion() {
  return (
    <section aria-labelledby="short-title">
      <h2 id="short-title">The short version</h2>
      <p>
        Think of each risk as a cost. If a source paid 8% a year but its returns jump around, part
        of its reward comes from incentive tokens and its contracts are young, we subtract a charge
        for each of those, in percentage points a year, much like a lender charges a riskier
        borrower a higher rate. What is left is the <strong>risk-adjusted 30-day APR</strong>.
      </p>
      <p>
        The sum of the charges is the source&apos;s <strong>risk</strong>. It is never below zero,
        and it is what the comparison charts plot across, with the 30-day APR (the reward) plotted
        up.
      </p>
    </section>
  );
}

/** What goes in: daily yield, the safety and liquidity scores, the window. */
export function WhatGoesIn() {
  return (
    <section aria-labelledby="inputs-title">
      <h2 id="inputs-title">What goes in</h2>
      <ul>
        <li>
          <strong>Daily yield</strong> for each source: its total APY, the part of it paid in
          incentive tokens, and the value deposited in it (TVL).
        </li>
        <li>
          <strong>A safety score</strong> from 1 to 5 (5 is safest): audits, track record, design
          and what the source depends on.
        </li>
        <li>
          <strong>A liquidity score</strong> from 1 to 5 (5 is an instant exit at full value).
        </li>
      </ul>
      <p>
        The window is the 30 most recent days of data. A source with fewer than 20 days in the
        window is listed but not ranked, and shows N/A.
      </p>
    </section>
  );
}

/** Where the data comes from: live, sample or none, and when a source is stale. */
export function DataOrigin() {
  return (
    <section aria-labelledby="data-title" data-testid="data-origin">
      <h2 id="data-title">Where the data comes from</h2>
      <p>
        The daily yields are imported from <strong>DeFiLlama</strong>&apos;s public yields service (
        <code>yields.llama.fi</code>): each source and each part of the base rates names its
        DeFiLlama pool, and the import keeps one point per day, that day&apos;s last snapshot. Every
        figure on the site says where it comes from: &quot;Data: DeFiLlama, as of&quot; the newest
        day imported. Before anything has been imported, the site shows its shipped examples, marked
        &quot;Sample data&quot; (realistic examples, not live market figures). Once it imports, a
        source without a DeFiLlama pool says &quot;No live data&quot;: it is listed without figures,
        neither plotted nor ranked, and a base-rate venue without one is left out of the base
        rate&apos;s mean. A strategy page links to its pool&apos;s page on DeFiLlama.
      </p>
      <p>Of each daily point, these fields are used:</p>
      <ul>
        <li>
          <code>timestamp</code>: the day the point belongs to (in UTC; of several snapshots of one
          day, the latest).
        </li>
        <li>
          <code>apy</code>: the total APY, in percent (when it is missing, <code>apyBase</code> +{' '}
          <code>apyReward</code>).
        </li>
        <li>
          <code>apyReward</code>: the part of the APY paid in incentive tokens (the incentives
          charge); missing counts as 0.
        </li>
        <li>
          <code>tvlUsd</code>: the value deposited, in US dollars (the size and outflow charges).
        </li>
      </ul>
      <p>
        <code>apyBase</code> (the APY without rewards), <code>il7d</code>, <code>apyBase7d</code>{' '}
        and <code>pricePerShare</code> are not used by the method. The safety and liquidity scores
        are our own, dated and explained for each source. A point with an implausible value (an APY
        above 1,000%, a negative TVL) is refused and the last good data is kept. A source whose
        newest day is more than 48 hours old is marked <strong>Stale</strong> with the date of its
        last data: its figures are those of that day, and it is never marked GREAT until its data
        arrives again.
      </p>
    </section>
  );
}

/** The steps of the method, in order. */
export function Steps() {
  return (
    <section aria-labelledby="steps-title">
      <h2 id="steps-title">Step by step</h2>
      <ol>
        <li>
          <strong>Turn each day&apos;s APY into an APR</strong>, so daily compounding does not
          flatter any source.
        </li>
        <li>
          <strong>Tame one-day spikes.</strong> A day far outside the usual range (more than five
          robust deviations from the median) is pulled back to the edge of that range, so one freak
          day cannot carry a month.
        </li>
        <li>
          <strong>Measure the month</strong>: the average APR (the 30-day APR), how much it varied,
          the average incentive part, the latest and the median deposits, and the largest fall in
          deposits from a peak.
        </li>
        <li>
          <strong>Charge for each risk</strong>, using the tables below.
        </li>
        <li>
          <strong>Subtract the charges</strong> from the 30-day APR. The result can be negative, and
          we show it as it is.
        </li>
      </ol>
    </section>
  );
}

/** The charges: how each is computed and why, and the score tables. */
export function Charges() {
  return (
    <section aria-labelledby="charges-title">
      <h2 id="charges-title">The six charges</h2>
      <div className={ui.tableWrap}>
        <table className={`${ui.table} ${ui.stack}`}>
          <caption className="visually-hidden">Risk charges and how each is computed</caption>
          <thead>
            <tr>
              <th scope="col">Charge</th>
              <th scope="col">How it is computed</th>
              <th scope="col">Why</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <th scope="row">{RA30_CHARGES.volatility.label}</th>
              <td data-label="Computed">1 × the standard deviation of the daily APR</td>
              <td data-label="Why">An unsteady rate is a less certain income.</td>
            </tr>
            <tr>
              <th scope="row">{RA30_CHARGES.incentives.label}</th>
              <td data-label="Computed">0.5 × the average incentive part of the APR</td>
              <td data-label="Why">Reward tokens lose value and programmes end.</td>
            </tr>
            <tr>
              <th scope="row">{RA30_CHARGES.safety.label}</th>
              <td data-label="Computed">By safety score (table below)</td>
              <td data-label="Why">The expected loss from hacks and failures.</td>
            </tr>
            <tr>
              <th scope="row">{RA30_CHARGES.liquidity.label}</th>
              <td data-label="Computed">By liquidity score (table below)</td>
              <td data-label="Why">The cost of not being able to leave quickly.</td>
            </tr>
            <tr>
              <th scope="row">{RA30_CHARGES.size.label}</th>
              <td data-label="Computed">
                0.25 for every factor of ten the median deposits are below $1B
              </td>
              <td data-label="Why">Small pools are less tested and easier to disrupt.</td>
            </tr>
            <tr>
              <th scope="row">{RA30_CHARGES.outflow.label}</th>
              <td data-label="Computed">
                1 × the largest fall in deposits from a peak, as a fraction
              </td>
              <td data-label="Why">Depositors leaving fast is a warning sign.</td>
            </tr>
          </tbody>
        </table>
      </div>

      <div className={ui.grid2}>
        <ChargeTable
          caption="Safety charge (points a year)"
          scoreLabel="Safety score"
          rows={SAFETY_CHARGES}
        />
        <ChargeTable
          caption="Liquidity charge (points a year)"
          scoreLabel="Liquidity score"
          rows={LIQUIDITY_CHARGES}
        />
      </div>
      <p>
        The safety table follows the loss rates of a credit-rating scale, where each step down
        roughly doubles the chance of a significant loss. It never reaches zero: even the safest
        source, and the base rates too, carry some risk.
      </p>
    </section>
  );
}

/** The DeFi Base Rate. */
export function BaseRate() {
  return (
    <section aria-labelledby="base-title">
      <h2 id="base-title">The DeFi Base Rate</h2>
      <p>
        The benchmark every source is measured against: the average return of the top DeFi lending
        protocols, run through exactly the same formula.
      </p>
      <ul>
        <li>
          <strong>Stablecoins</strong> (USDC, USDT and DAI): for each coin, the deposit-weighted
          average rate of its leading lending venues, then the plain average of the three coins.
        </li>
        <li>
          <strong>Crypto</strong> (stETH, rETH, cbETH and ETH): the plain average of the staking
          yields of the three liquid staking tokens and of native ETH staking. ETH-based sources are
          measured in ETH, never converted to dollars.
        </li>
      </ul>
      <h3>When is a source GREAT?</h3>
      <p>
        Draw a line from zero through the base rate on the risk-versus-reward chart. A source above
        that line pays more reward for each point of risk than the benchmark does, and is marked
        GREAT. Stablecoin sources are compared with the stablecoin base rate, crypto sources with
        the crypto one. A source with an active incident is never marked GREAT until the incident is
        resolved.
      </p>
    </section>
  );
}

/** A worked example on the live data. */
export function Example() {
  return (
    <section aria-labelledby="example-title">
      <h2 id="example-title">A worked example</h2>
      <p>
        Pick a source to see its latest numbers taken apart, charge by charge, straight from the
        data behind the comparison.
      </p>
      <WorkedExample />
    </section>
  );
}

/** Changes to the method: the versions every figure carries. */
export function MethodVersion() {
  return (
    <section aria-labelledby="version-title">
      <h2 id="version-title">Changes to the method</h2>
      <p>
        Every computed figure carries the method version, currently <code>{METHOD_VERSION}</code>.
        Changing any coefficient creates a new version, so a number can always be traced back to the
        exact rules that produced it. The scanner&apos;s pools carry{' '}
        <code>{POOL_METHOD_VERSION}</code>, versioned the same way.
      </p>
      <p>
        See the results in <Link to="/options">the yield comparison</Link> and how its picks fared
        in <Link to="/track-record">the track record</Link>, and read about what the numbers cannot
        capture in <Link to="/risks">Understanding the Risks</Link>.
      </p>
    </section>
  );
}
