import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/preact';
import { bytesToBase64, latin1ToBytes } from '@tinygs/contracts';
import { renderTemplate } from './lib/renderTemplate';
import {
  TEMPLATE_ERROR_TEXT,
  TelemetryView,
  UNRECOGNIZED_PACKET,
  UNVERIFIED_PACKET,
} from './components/TelemetryView';

const parsed = {
  header: { msgTypeId: 6 },
  payload: { batteryVolts: 3925.456, tinygsTemp: -4, label: '<b>x</b>' },
};
const scope = { packet: { satellite: 'SATLLA-2B', parsed }, h: parsed.header, p: parsed.payload };

function html(template: string): string {
  const result = renderTemplate(template, scope);
  if (!result.ok) throw new Error(result.error);
  return result.html;
}

describe('telemetry templates', () => {
  it('exposes packet, h and p and the number filters', () => {
    expect(html('{{ packet.satellite }} {{ h.msgTypeId | toHex }}')).toBe('SATLLA-2B 0x06');
    expect(html('{{ p.batteryVolts | round }} {{ p.batteryVolts | round: 1 }}')).toBe(
      '3925 3925.5',
    );
    expect(html('{{ p.batteryVolts | fixed2 }} {{ p.batteryVolts | fixed3 }}')).toBe(
      '3925.46 3925.456',
    );
    expect(html('{% if p.tinygsTemp < 0 %}cold{% endif %}')).toBe('cold');
  });

  it('escapes values from the frame', () => {
    expect(html('<span>{{ p.label }}</span>')).toBe('<span>&lt;b&gt;x&lt;/b&gt;</span>');
  });

  it('removes script and event handlers from the output', () => {
    const out = html(
      '<p>ok</p><script>alert(1)</script><img src="x" onerror="alert(2)"><a href="javascript:alert(3)">l</a>',
    );
    expect(out).toContain('<p>ok</p>');
    expect(out).not.toContain('<script');
    expect(out).not.toContain('onerror');
    expect(out).not.toContain('javascript:');
  });

  it('cannot read prototype members', () => {
    expect(html('[{{ p.constructor }}][{{ p.__proto__ }}]')).toBe('[][]');
  });

  it('reports a broken template instead of throwing', () => {
    expect(renderTemplate('{% if %}', scope).ok).toBe(false);
    expect(renderTemplate('{{ p.x | noSuchFilter }}', scope).ok).toBe(true);
    expect(renderTemplate('{% include "secrets" %}', scope).ok).toBe(false);
  });
});

describe('TelemetryView', () => {
  it('renders the sanitised template output', () => {
    const { container } = render(
      <TelemetryView
        template={
          '<h4>Battery {{ p.batteryVolts | fixed2 }} mV</h4><img src=x onerror="window.hacked=1">'
        }
        parsed={parsed}
      />,
    );
    expect(screen.getByRole('heading', { name: 'Battery 3925.46 mV' })).toBeInTheDocument();
    expect(container.innerHTML).not.toContain('onerror');
  });

  it('shows the exact unrecognized text when nothing was decoded', () => {
    render(<TelemetryView template="{{ p.x }}" parsed={undefined} raw="AAEC" />);
    expect(screen.getByText(UNRECOGNIZED_PACKET)).toBeInTheDocument();
    expect(UNRECOGNIZED_PACKET).toBe(
      'Unrecognized packet. This packet does not match the known structure of this satellite. It might be an unknown packet or just terrestrial noise.',
    );
  });

  it('says so for an unverified frame instead of rendering its envelope', () => {
    const envelope = {
      payload: { tinygsSatellite: 'Norbi', tinygsTxPower: 2000 },
      tinygsSatellite: 'Norbi',
      telemetry: false,
    };
    render(
      <TelemetryView
        template="<h4>Power {{ p.tinygsTxPower }}</h4>"
        parsed={envelope}
        unverified
      />,
    );
    expect(screen.getByText(UNVERIFIED_PACKET)).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: /Power/ })).toBeNull();
  });

  it('falls back to the raw hex when the template breaks', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    render(
      <TelemetryView
        template="{% for %}"
        parsed={parsed}
        raw={bytesToBase64(latin1ToBytes('ABC'))}
      />,
    );
    expect(screen.getByText(TEMPLATE_ERROR_TEXT)).toBeInTheDocument();
    expect(screen.getByTestId('hex-row')).toHaveTextContent('41 42 43');
  });

  it('lists the decoded fields when the satellite has no template', () => {
    render(<TelemetryView template={null} parsed={parsed} />);
    expect(screen.getByRole('rowheader', { name: 'batteryVolts' })).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: '3925.456' })).toBeInTheDocument();
  });
});
