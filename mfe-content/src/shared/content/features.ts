import type { IconName } from '../components/Icon.tsx';

export interface Feature {
  id: string;
  title: string;
  icon: IconName;
  /** One or two sentences for the landing card. */
  summary: string;
  /** The /advantages page: what it means and why it matters for a saver. */
  meaning: string;
  whyItMatters: string;
  related?: { to: '/risks' | '/sources-of-yield' | '/methodology'; label: string };
}

/** The six cards of 'Best Reward Ratio on the Market', expanded on /advantages. */
export const FEATURES: Feature[] = [
  {
    id: 'best-yield',
    title: 'Best Yield',
    icon: 'trendingUp',
    summary:
      'Deposits go to the sources that pay the most after their risks are charged for, not simply the highest headline rate.',
    meaning:
      'Every yield source we track is scored by its risk-adjusted 30-day APR: what it actually paid over the last 30 days, minus a charge for each risk it carried. Deposits are spread across the sources with the best of that number, and are rebalanced as rates change.',
    whyItMatters:
      'A headline rate on its own says nothing about what could go wrong. Comparing yields after risk lets you see whether an extra point of return is worth what it exposes you to, and how each source compares with the DeFi Base Rate, the average of the leading lending protocols.',
    related: { to: '/methodology', label: 'How the risk-adjusted APR is computed' },
  },
  {
    id: 'not-a-trading-strategy',
    title: 'Not a Trading Strategy',
    icon: 'layers',
    summary:
      'No bets on prices. The yield comes from lending, treasury bills and market-neutral positions, and is paid whether markets rise or fall.',
    meaning:
      'Your USDC is not used to speculate on crypto prices. It earns interest from borrowers, from short-term US treasury bills held through tokenised funds, and from delta-neutral positions whose gains do not depend on which way the market moves.',
    whyItMatters:
      'Trading returns swing with the market and can turn into losses quickly. Savings built on interest aim for a steadier, more predictable income, which is what most savers are looking for.',
    related: { to: '/sources-of-yield', label: 'Where the yield comes from' },
  },
  {
    id: 'top-notch-security',
    title: 'Top-Notch Security',
    icon: 'shield',
    summary:
      'Funds sit in smart contracts audited by two independent security firms, and deposits are covered by a mutual cover provider.',
    meaning:
      'The vault contracts were reviewed by two independent security firms before launch, and deposits are covered by a mutual cover provider against specified smart contract failures. Only established, battle-tested protocols are eligible to receive funds.',
    whyItMatters:
      'Security reviews and cover reduce risk; they do not remove it. Audits can miss bugs and cover has terms and limits. We explain each remaining risk in plain words so you can decide with your eyes open.',
    related: { to: '/risks', label: 'Understand the risks' },
  },
  {
    id: 'simple',
    title: 'Simple',
    icon: 'check',
    summary:
      'One deposit in USDC. We handle the research, the allocation and the rebalancing across protocols for you.',
    meaning:
      'Instead of opening accounts on several protocols, tracking their rates and moving funds yourself, you make one USDC deposit into a vault that follows the ERC4626 standard. The allocation across protocols is handled for you.',
    whyItMatters:
      'Doing this by hand takes time, costs transaction fees each time you move, and makes mistakes likely. A single deposit keeps things clear: you see one balance and what it earns.',
  },
  {
    id: 'instant-transactions',
    title: 'Instant Transactions',
    icon: 'zap',
    summary: 'Deposit and withdraw whenever you like, with no lock-ups and no penalties.',
    meaning:
      'There is no lock-up period and no penalty for leaving. Deposits and on-chain withdrawals settle as soon as the network confirms them; withdrawals through some methods, such as a transfer to a bank, may take 1-3 business days.',
    whyItMatters:
      'Your savings should stay yours to use. Being able to leave at any time also keeps us honest: if the yield stops being worth it, you can take your money elsewhere.',
  },
  {
    id: 'self-custody',
    title: 'Self-Custody',
    icon: 'key',
    summary: 'You keep your own keys. We never have access to your private keys or to your funds.',
    meaning:
      'Funds are held in smart contracts that only your wallet can withdraw from. We do not hold your private keys and cannot move your money on your behalf.',
    whyItMatters:
      'When a platform holds your keys, its failure can become your loss. With self-custody, nobody can freeze or lend out your deposit without your signature. The flip side: keep your keys and recovery phrase safe, because nobody can recover them for you.',
    related: { to: '/risks', label: 'Read about smart contract risk' },
  },
];
