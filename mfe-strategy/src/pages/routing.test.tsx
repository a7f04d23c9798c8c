import { render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { holdOthers } from '@yield/fixtures/msw';
import StrategyDetailPage from './StrategyDetailPage.tsx';
import NumericStrategyPage from './NumericStrategyPage.tsx';

vi.mock('../shared/charts/lazy.ts', () => {
  const Stub = () => <div />;
  return { LazyHistoryChart: Stub, loadHistoryChart: () => Promise.resolve() };
});

function Where() {
  const location = useLocation();
  return <p data-testid="where">{location.pathname}</p>;
}

function renderAt(path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  holdOthers();
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/options" element={<Where />} />
          <Route path="/options/:id" element={<StrategyDetailPage />} />
          <Route path="/strategy/:id" element={<NumericStrategyPage />} />
          <Route path="/strategy-detail/:id" element={<NumericStrategyPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('strategy routes', () => {
  it('replaces an unknown /options/:id with /options', () => {
    renderAt('/options/not-a-strategy');
    expect(screen.getByTestId('where')).toHaveTextContent('/options');
  });

  it('loads a known slug instead of redirecting', () => {
    renderAt('/options/sky-spark');
    expect(screen.queryByTestId('where')).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Loading the strategy');
  });

  it('redirects an unknown numeric id to /options', () => {
    renderAt('/strategy/42');
    expect(screen.getByTestId('where')).toHaveTextContent('/options');
  });

  it('shows the disabled panel for a listed id other than 3', () => {
    renderAt('/strategy-detail/2');
    expect(screen.getByRole('heading', { name: 'Strategy Not Available' })).toBeInTheDocument();
    expect(
      screen.getByText('This strategy is currently disabled. Please select an active strategy.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Back/ })).toHaveAttribute('href', '/');
  });

  it('shows id 3 with its three cards, formatted', () => {
    window.scrollTo = vi.fn();
    renderAt('/strategy/3');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(
      'Liquity v1 - Stability Pool',
    );
    expect(screen.getByTestId('card-apr')).toHaveTextContent(/30d APR\d+\.\d{2}%/);
    expect(screen.getByTestId('card-ra-apr')).toHaveTextContent(
      /30d Risk Adjusted APR-?\d+\.\d{2}%/,
    );
    expect(screen.getByTestId('card-tvl')).toHaveTextContent(/TVL\$\d+\.\dM/);
    // The sample data's holder count, labelled as sample.
    expect(screen.getByTestId('card-tvl')).toHaveTextContent(/1,649 holders \(sample\)/);
    expect(window.scrollTo).toHaveBeenCalledWith(0, 0);
  });
});
