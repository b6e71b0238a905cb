import { afterEach, describe, expect, it } from 'vitest';
import { act, render, screen } from '@testing-library/preact';
import { bytesToBase64, latin1ToBytes } from '@tinygs/contracts';
import { HEX_CRC_ERROR_TEXT, HEX_INVALID_TEXT, HEX_TEST_LABEL, HexView } from './HexView';

const originalWidth = window.innerWidth;

function setWidth(px: number) {
  Object.defineProperty(window, 'innerWidth', { configurable: true, value: px });
}

function frame(length: number): string {
  return bytesToBase64(Uint8Array.from({ length }, (_, i) => i));
}

function rowTexts(): string[] {
  return screen.getAllByTestId('hex-row').map((row) => row.textContent ?? '');
}

afterEach(() => setWidth(originalWidth));

describe('HexView', () => {
  it('shows 16 bytes per row on windows wider than 1290 px', () => {
    setWidth(1291);
    render(<HexView raw={frame(40)} />);
    const rows = rowTexts();
    expect(rows).toHaveLength(3);
    expect(rows[0]).toContain('00 01 02 03 04 05 06 07 08 09 0A 0B 0C 0D 0E 0F');
    expect(rows[1]?.startsWith('0010')).toBe(true);
  });

  it('shows 9 bytes per row at 1290 px and below', () => {
    setWidth(1290);
    render(<HexView raw={frame(40)} />);
    const rows = rowTexts();
    expect(rows).toHaveLength(5);
    expect(rows[1]?.startsWith('0009')).toBe(true);
  });

  it('follows window resizes', () => {
    setWidth(1600);
    render(<HexView raw={frame(32)} />);
    expect(rowTexts()).toHaveLength(2);
    act(() => {
      setWidth(360);
      window.dispatchEvent(new Event('resize'));
    });
    expect(rowTexts()).toHaveLength(4);
  });

  it('prints printable bytes as ASCII next to the hex', () => {
    render(<HexView raw={bytesToBase64(latin1ToBytes('Hi!\u0001'))} />);
    expect(rowTexts()[0]).toContain('48 69 21 01');
    expect(rowTexts()[0]).toContain('Hi!.');
  });

  it('shows Invalid Data for text that is not base64', () => {
    render(<HexView raw="not base64!" />);
    expect(screen.getByText(HEX_INVALID_TEXT)).toBeInTheDocument();
    expect(screen.queryByTestId('hex-row')).not.toBeInTheDocument();
  });

  it('labels test frames', () => {
    render(<HexView raw={bytesToBase64(latin1ToBytes('TinyGS-test hello'))} />);
    expect(screen.getByText(HEX_TEST_LABEL)).toBeInTheDocument();
    expect(screen.getAllByTestId('hex-row').length).toBeGreaterThan(0);
  });

  it('shows CRC ERROR for the CRC error marker', () => {
    render(<HexView raw={bytesToBase64(latin1ToBytes('Error_CRC'))} />);
    expect(screen.getByText(HEX_CRC_ERROR_TEXT)).toBeInTheDocument();
    expect(screen.queryByTestId('hex-row')).not.toBeInTheDocument();
  });
});
