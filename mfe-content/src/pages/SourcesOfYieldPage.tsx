import { Link } from 'react-router-dom';
import { PageMeta } from '@yield/platform';
import { BackHome } from '../shared/components/BackHome.tsx';
import ui from '../shared/components/components.module.css';

const STRATEGIES = [
  {
    id: 'delta-neutral',
    title: 'Delta-neutral strategies',
    range: '4-12% a year',
    how: [
      'A delta-neutral position holds an asset and, at the same time, a short position of the same size on a derivatives market. Price moves on one side are cancelled by the other, so the position neither gains nor loses when the market moves.',
      'The yield is the funding rate: traders who want leveraged long exposure pay the short side a regular fee to keep their positions open. Staking rewards on the held asset can add to it.',
    ],
    risks:
      'Funding rates fall, and can turn negative, when the market turns bearish. The position also depends on the exchanges and custodians that hold the hedge.',
  },
  {
    id: 'treasury-bills',
    title: 'Real-world assets: treasury bills',
    range: '4-5% a year',
    how: [
      'Tokenised funds hold short-term US government treasury bills and pass the interest on to their token holders on chain.',
      'This is the same yield a money market fund earns, made available to stablecoin savers. It follows the interest rates set by the US Federal Reserve.',
    ],
    risks:
      'The rate falls when central banks cut rates. Holders rely on the fund issuer, its custodian and its legal structure to redeem the tokens for the underlying bills.',
  },
  {
    id: 'lending',
    title: 'Lending protocols',
    range: '6-15% a year',
    how: [
      'Lending protocols match savers with borrowers automatically. Borrowers pay interest, and the rate rises when demand to borrow is high.',
      'Every loan is over-collateralised: a borrower must post collateral worth at least 110% of the loan. If the collateral loses value, it is sold automatically to repay the lenders before the loan becomes unsafe.',
    ],
    risks:
      'In a very fast crash, collateral can fall faster than liquidations can keep up, leaving bad debt. Rates also swing with borrowing demand, and the protocol code itself can have bugs.',
  },
];

export default function SourcesOfYieldPage() {
  return (
    <main className="page">
      <PageMeta
        title="Sources of the Yield"
        description="Where the yield comes from: delta-neutral strategies, treasury bills and lending protocols."
      />
      <article className={ui.prose}>
        <BackHome />
        <h1>Sources of the Yield</h1>
        <p className={ui.leadLeft}>
          Yield is never free money: someone pays it for a reason. Here is who pays it, why, and
          what could interrupt it. None of these sources depends on crypto prices going up.
        </p>

        {STRATEGIES.map((strategy) => (
          <section key={strategy.id} aria-labelledby={`${strategy.id}-title`}>
            <h2 id={`${strategy.id}-title`}>{strategy.title}</h2>
            <p>
              <strong>Typical yield: {strategy.range}</strong>
            </p>
            {strategy.how.map((paragraph) => (
              <p key={paragraph.slice(0, 24)}>{paragraph}</p>
            ))}
            <p>
              <strong>What could go wrong:</strong> {strategy.risks}
            </p>
          </section>
        ))}

        <section aria-labelledby="breakdown-title">
          <h2 id="breakdown-title">Yield breakdown</h2>
          <p>
            How the three sources compare. Ranges are typical annual yields seen over the past
            years, not promises: the rates actually paid change every day.
          </p>
          <div className={ui.tableWrap}>
            <table className={`${ui.table} ${ui.stack}`}>
              <caption className="visually-hidden">Typical yield by source</caption>
              <thead>
                <tr>
                  <th scope="col">Source</th>
                  <th scope="col">Typical yield</th>
                  <th scope="col">Who pays it</th>
                  <th scope="col">Moves with</th>
                </tr>
              </thead>
              <tbody>
                <tr>
                  <th scope="row">Delta-neutral</th>
                  <td className={ui.num}>4-12%</td>
                  <td data-label="Who pays it">Leveraged traders, through funding rates</td>
                  <td data-label="Moves with">Market sentiment</td>
                </tr>
                <tr>
                  <th scope="row">Treasury bills</th>
                  <td className={ui.num}>4-5%</td>
                  <td data-label="Who pays it">The US government, through bill interest</td>
                  <td data-label="Moves with">Central bank rates</td>
                </tr>
                <tr>
                  <th scope="row">Lending protocols</th>
                  <td className={ui.num}>6-15%</td>
                  <td data-label="Who pays it">Borrowers posting at least 110% collateral</td>
                  <td data-label="Moves with">Demand to borrow</td>
                </tr>
              </tbody>
            </table>
          </div>
          <p>
            Mixing the three smooths the overall return: when funding rates drop in a quiet market,
            treasury bills keep paying, and lending rates often rise when traders are active. The
            only fee is 0.5% of the yield generated.
          </p>
          <p>
            To see what each source actually paid over the last 30 days, after risk, open{' '}
            <Link to="/options">the yield comparison</Link> or read{' '}
            <Link to="/methodology">how the risk-adjusted APR is computed</Link>.
          </p>
        </section>

        <section aria-labelledby="next-title">
          <h2 id="next-title">Keep reading</h2>
          <ul>
            <li>
              <Link to="/advantages">Our advantages</Link>: why we compare yields after risk
            </li>
            <li>
              <Link to="/risks">Understanding the risks</Link>: what could go wrong and how we
              reduce it
            </li>
          </ul>
          <div className={ui.buttonRow}>
            <Link to="/" className="btn btn-primary">
              Get Started
            </Link>
          </div>
        </section>
      </article>
    </main>
  );
}
