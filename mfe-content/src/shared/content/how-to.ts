export type RiskBadgeLevel = 'Very High' | 'High' | 'Medium' | 'Low' | 'Very Low';
export type Track = 'tradfi' | 'crypto';

export interface GrowthOption {
  title: string;
  description: string;
  risk: RiskBadgeLevel;
}

/** The How-to page: the options of each track, riskiest first. */
export const GROWTH_OPTIONS: Record<Track, GrowthOption[]> = {
  tradfi: [
    {
      title: 'Active stock trading',
      description:
        'Buying and selling individual shares to profit from short-term price moves. Most active traders underperform the market once fees and taxes are counted.',
      risk: 'Very High',
    },
    {
      title: 'Real Estate',
      description:
        'Buying property to rent out or resell. It can pay well, but needs a large deposit, often a loan, and is slow and costly to sell when you need the money.',
      risk: 'High',
    },
    {
      title: 'Index funds',
      description:
        'A low-cost fund that holds a whole market, such as the 500 largest US companies. Good over many years, but it can drop sharply in a bad year.',
      risk: 'Medium',
    },
    {
      title: 'Treasury bills',
      description:
        'Short-term loans to the government, repaid in weeks or months with interest. The yield follows central bank rates.',
      risk: 'Low',
    },
    {
      title: 'Bank savings',
      description:
        'A savings account at your bank, usually covered by a deposit guarantee up to a limit. Safe and simple, but the interest often trails inflation.',
      risk: 'Very Low',
    },
  ],
  crypto: [
    {
      title: 'Active token trading',
      description:
        'Trading tokens to profit from price swings, often with leverage. Prices can halve in days and leverage can wipe out a position entirely.',
      risk: 'Very High',
    },
    {
      title: 'Manual protocol use',
      description:
        'Depositing into DeFi protocols yourself and moving between them to chase rates. Every move costs fees, and one wrong contract or phishing link can cost everything.',
      risk: 'High',
    },
    {
      title: 'Auto-rebalancing vaults',
      description:
        'A vault spreads your deposit across several protocols and rebalances it for you. Less work and fewer mistakes, but you rely on the vault contracts as well as the protocols.',
      risk: 'Medium',
    },
    {
      title: 'Crypto savings accounts / yield-bearing stablecoins',
      description:
        'Dollar stablecoins that earn interest from lending or treasury bills. No exposure to crypto prices; the main risks are the issuer and the contracts behind the stablecoin.',
      risk: 'Low',
    },
    {
      title: 'Running a validator node',
      description:
        'Staking your own ETH on a validator to earn network rewards. Steady rewards, but it needs technical skill, reliable hardware and 32 ETH.',
      risk: 'Low',
    },
    {
      title: 'Buying Bitcoin/Ethereum',
      description:
        'Buying the two largest crypto assets and holding them yourself. Nothing to operate and no counterparty to trust, though their prices still move a lot from year to year.',
      risk: 'Very Low',
    },
  ],
};
