export type RiskLevel = 'Medium' | 'Low-Medium';

export interface RiskArea {
  id: string;
  name: string;
  level: RiskLevel;
  /** Width of the summary bar (Medium 50%, Low-Medium 30%). */
  percent: number;
  summary: string;
  whatCanHappen: string[];
  howWeReduceIt: string[];
}

export const RISK_AREAS: RiskArea[] = [
  {
    id: 'smart-contract',
    name: 'Smart Contract',
    level: 'Medium',
    percent: 50,
    summary:
      'Your deposit lives in code. A bug in the vault or in a protocol it uses could let funds be lost or locked.',
    whatCanHappen: [
      'A flaw in a contract is found and exploited by an attacker before it can be fixed.',
      'An upgrade to a contract introduces a new bug.',
      'A price feed (oracle) reports a wrong price and triggers bad liquidations or withdrawals.',
    ],
    howWeReduceIt: [
      'The vault contracts were audited by two independent security firms.',
      'Deposits are covered by a mutual cover provider, within the terms and limits of that cover.',
      'Funds only go to protocols with a long record, public audits and meaningful deposits.',
    ],
  },
  {
    id: 'protocol',
    name: 'Protocol',
    level: 'Medium',
    percent: 50,
    summary:
      'Each underlying protocol has its own design, governance and dependencies, and any of them can fail.',
    whatCanHappen: [
      'A governance vote changes rates, fees or rules in a way that hurts depositors.',
      'A protocol depends on another protocol or stablecoin that fails, and the loss spreads.',
      'In a sharp crash, a lending protocol is left with bad debt that lenders absorb.',
    ],
    howWeReduceIt: [
      'Deposits are diversified across several protocols, so one failure does not take everything.',
      'Each source is charged for its safety score in the risk-adjusted APR and ranked accordingly.',
      'Protocols with an active incident are flagged and never marked GREAT until it is resolved.',
    ],
  },
  {
    id: 'market',
    name: 'Market',
    level: 'Low-Medium',
    percent: 30,
    summary:
      'Savings are in USDC and do not bet on prices, but market stress still affects yields and exits.',
    whatCanHappen: [
      'Yields fall when borrowing demand or funding rates drop, sometimes for months.',
      'A stablecoin loses its peg to the dollar for a time.',
      'In a rush for the exit, withdrawing from some protocols can be slower or cost more.',
    ],
    howWeReduceIt: [
      'USDC only: no exposure to the price of volatile crypto assets.',
      'Sources with volatile returns, shrinking deposits or slow exits are charged for it in the ranking.',
      'No lock-ups and no withdrawal penalties, so you can leave when you choose.',
    ],
  },
  {
    id: 'regulatory',
    name: 'Regulatory',
    level: 'Low-Medium',
    percent: 30,
    summary: 'Rules for crypto assets are still being written and differ from country to country.',
    whatCanHappen: [
      'New rules restrict access to some protocols or stablecoins in your country.',
      'A stablecoin issuer is required to freeze certain addresses.',
      'Tax treatment of crypto yield changes where you live.',
    ],
    howWeReduceIt: [
      'We focus on USDC, a stablecoin issued by a regulated company with published reserve reports.',
      'We follow regulatory developments and will tell users about any change that affects them.',
      'Self-custody: your funds stay in contracts only your wallet can withdraw from.',
    ],
  },
];
