import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Accordion } from './Accordion.tsx';

const ITEMS = [
  { id: 'a', question: 'First?', answer: <p>Answer one</p> },
  { id: 'b', question: 'Second?', answer: <p>Answer two</p> },
  { id: 'c', question: 'Third?', answer: <p>Answer three</p> },
];

describe('Accordion', () => {
  it('keeps at most one item open', async () => {
    const user = userEvent.setup();
    render(<Accordion items={ITEMS} />);
    expect(screen.queryByRole('region')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'First?' }));
    expect(screen.getByRole('region', { name: 'First?' })).toHaveTextContent('Answer one');

    await user.click(screen.getByRole('button', { name: 'Second?' }));
    expect(screen.getAllByRole('region')).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'First?' })).toHaveAttribute(
      'aria-expanded',
      'false',
    );
    expect(screen.getByRole('button', { name: 'Second?' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );

    await user.click(screen.getByRole('button', { name: 'Second?' }));
    expect(screen.queryByRole('region')).toBeNull();
  });

  it('moves between questions with the arrow, Home and End keys', async () => {
    const user = userEvent.setup();
    render(<Accordion items={ITEMS} />);
    screen.getByRole('button', { name: 'First?' }).focus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('button', { name: 'Second?' })).toHaveFocus();
    await user.keyboard('{End}');
    expect(screen.getByRole('button', { name: 'Third?' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('button', { name: 'First?' })).toHaveFocus();
    await user.keyboard('{ArrowUp}');
    expect(screen.getByRole('button', { name: 'Third?' })).toHaveFocus();
    await user.keyboard('{Home}{Enter}');
    expect(screen.getByRole('button', { name: 'First?' })).toHaveAttribute('aria-expanded', 'true');
  });
});
