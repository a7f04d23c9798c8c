import { render, screen, act } from '@testing-library/react';
import { AntdRoot } from './AntdRoot.tsx';
import { useToast, type Toast } from './use-toast.ts';

let toast: Toast;
function Probe() {
  toast = useToast();
  return null;
}

describe('useToast', () => {
  it('shows a success toast with the given title and description', async () => {
    render(
      <AntdRoot>
        <Probe />
      </AntdRoot>,
    );
    act(() => toast.success('Success!', "You've been added to our mailing list."));
    expect(await screen.findByText('Success!')).toBeInTheDocument();
    expect(screen.getByText("You've been added to our mailing list.")).toBeInTheDocument();
  });

  it('shows a destructive toast as an alert', async () => {
    render(
      <AntdRoot>
        <Probe />
      </AntdRoot>,
    );
    act(() => toast.error('Error', 'The code is invalid'));
    expect(await screen.findByText('The code is invalid')).toBeInTheDocument();
    expect(screen.getAllByRole('alert').length).toBeGreaterThan(0);
  });
});
