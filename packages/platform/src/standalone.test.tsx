import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { standaloneRoutes } from './standalone.tsx';

const load = vi.fn(async (name: string) => ({ default: () => <p>{name}</p> }));

const routes = standaloneRoutes(
  {
    pages: [
      { path: '/options', title: 'Comparison', module: './ComparisonPage' },
      {
        path: '/',
        title: 'Home',
        modules: ['mfe_content/LandingHero', './ComparisonSection', 'mfe_content/LandingSections'],
      },
    ],
    sections: ['./Newsletter'],
  },
  load,
);

async function open(path: string) {
  render(<RouterProvider router={createMemoryRouter(routes, { initialEntries: [path] })} />);
  return screen.findAllByText(/./);
}

describe("a remote's standalone harness", () => {
  it("routes its pages from its own page list, with the pages' titles", () => {
    expect(routes.map(({ path, title }) => [path, title])).toEqual([
      ['/options', 'Comparison'],
      ['/', 'Home'],
      ['/sections/Newsletter', 'Newsletter'],
    ]);
  });

  it("renders this remote's modules of a page; another remote's parts are not here", async () => {
    expect((await open('/')).map((p) => p.textContent)).toEqual(['ComparisonSection']);
    expect(load).not.toHaveBeenCalledWith('LandingHero');
  });

  it('shows the sections other remotes compose on their own path', async () => {
    expect((await open('/sections/Newsletter')).map((p) => p.textContent)).toEqual(['Newsletter']);
  });
});
