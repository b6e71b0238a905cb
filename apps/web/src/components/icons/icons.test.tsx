import { render } from '@testing-library/preact';
import { createTheme, ThemeProvider } from '@mui/material/styles';
import { describe, expect, it } from 'vitest';
import { BalloonIcon, SatelliteIcon, StationIcon } from './icons';

function filledPath(container: Element) {
  const svg = container.querySelector('svg');
  return { svg, fill: svg?.querySelector('path')?.getAttribute('fill') };
}

describe('product icons (SPEC.md section 9)', () => {
  it('draws the balloon white and 48 px by default', () => {
    const { svg, fill } = filledPath(render(<BalloonIcon />).container);
    expect(svg).toHaveAttribute('width', '48');
    expect(fill).toBe('#ffffff');
  });

  it('fills satellite and station white on a light page and black on a dark one', () => {
    const light = render(
      <ThemeProvider theme={createTheme({ palette: { mode: 'light' } })}>
        <SatelliteIcon />
        <StationIcon />
      </ThemeProvider>,
    );
    const lightFills = [...light.container.querySelectorAll('svg')].map((svg) =>
      svg.querySelector('path')?.getAttribute('fill'),
    );
    expect(lightFills).toEqual(['#ffffff', '#ffffff']);
    light.unmount();
    const dark = render(
      <ThemeProvider theme={createTheme({ palette: { mode: 'dark' } })}>
        <SatelliteIcon />
      </ThemeProvider>,
    );
    expect(filledPath(dark.container).fill).toBe('#000000');
  });

  it('is decorative unless it has a title', () => {
    const { container, getByRole } = render(
      <>
        <SatelliteIcon />
        <StationIcon title="Station" />
      </>,
    );
    expect(container.querySelector('svg')).toHaveAttribute('aria-hidden', 'true');
    expect(getByRole('img', { name: 'Station' })).toBeInTheDocument();
  });
});
