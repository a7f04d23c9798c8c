import { Link } from 'react-router-dom';
import type { AccordionItem } from '../components/Accordion.tsx';

/** The landing FAQ: seven questions, answers consistent with the product's offer and figures. */
export const FAQ_ITEMS: AccordionItem[] = [
  {
    id: 'ranking',
    question: 'How do you rank the yield sources?',
    answer: (
      <>
        <p>
          By their risk-adjusted 30-day APR: the average rate a source paid over its last 30 days,
          minus a charge for each risk it carried (volatile returns, incentive tokens, smart
          contract safety, how easy it is to exit, size and outflows). The same formula runs on
          every source and on the DeFi Base Rate, the average return of the top DeFi lending
          protocols, so you can see at a glance which sources beat it.
        </p>
        <p>
          <Link to="/methodology">Read the full methodology</Link>
        </p>
      </>
    ),
  },
  {
    id: 'yield',
    question: 'Where does the yield come from?',
    answer: (
      <>
        <p>
          From three kinds of real economic activity: delta-neutral strategies (typically 4-12% a
          year), tokenised US treasury bills (4-5%) and over-collateralised lending protocols
          (6-15%), where borrowers post at least 110% of what they borrow as collateral. None of it
          depends on crypto prices going up.
        </p>
        <p>
          <Link to="/sources-of-yield">See the sources of the yield</Link>
        </p>
      </>
    ),
  },
  {
    id: 'safety',
    question: 'Is my money safe?',
    answer: (
      <>
        <p>
          No savings product in crypto is risk-free, and we will not pretend otherwise. Funds are
          held in smart contracts audited by two independent security firms, deposits are covered by
          a mutual cover provider, and only established protocols receive funds. The main remaining
          risks are smart contract bugs, failures of an underlying protocol, market stress and
          regulatory change.
        </p>
        <p>
          <Link to="/risks">Understand the risks</Link>
        </p>
      </>
    ),
  },
  {
    id: 'fees',
    question: 'What does it cost?',
    answer: (
      <p>
        The only fee is 0.5% of the yield your deposit generates. There is no deposit fee, no
        withdrawal fee and no subscription: if your savings earn nothing, you pay nothing. The
        blockchain network still charges its own transaction fee when you move funds.
      </p>
    ),
  },
  {
    id: 'withdraw',
    question: 'Can I withdraw my money at any time?',
    answer: (
      <p>
        Yes. There is no lock-up and no penalty. On-chain withdrawals settle as soon as the network
        confirms them; withdrawals through some methods, such as a transfer to a bank account, may
        take 1-3 business days.
      </p>
    ),
  },
  {
    id: 'assets',
    question: 'Which currencies can I deposit?',
    answer: (
      <p>
        USDC only, for now. The vault follows the ERC4626 vault standard, so your deposit is
        represented by vault shares whose value grows as the yield comes in. You make your first
        deposit by sending USDC to the contract address shown in your account.
      </p>
    ),
  },
  {
    id: 'keys',
    question: 'Who holds my funds and my keys?',
    answer: (
      <p>
        You do. Funds sit in smart contracts that only your wallet can withdraw from, and we have no
        access to your private keys. That also means nobody can recover a lost recovery phrase for
        you, so keep it somewhere safe and offline.
      </p>
    ),
  },
];
