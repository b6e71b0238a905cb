// Loaded on demand: one telemetry series as a line over time; per-bucket answers draw the average
// with the min-max band around it.
import {
  Chart,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';
import { Line } from 'react-chartjs-2';
import type { TelemetrySeries } from '@tinygs/contracts';

Chart.register(LinearScale, LineController, LineElement, PointElement, Filler, Legend, Tooltip);

const timeText = new Intl.DateTimeFormat(undefined, {
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

export default function TelemetryChartCanvas({
  series,
  label,
}: {
  series: TelemetrySeries;
  label: string;
}) {
  const { t, min, max } = series;
  const xy = (values: readonly number[]) => t.map((x, i) => ({ x, y: values[i] ?? null }));
  const avg = xy(series.avg);
  const datasets =
    !min || !max
      ? [{ label: series.field, data: avg, borderColor: '#42a5f5', backgroundColor: '#42a5f5' }]
      : [
          {
            label: 'min',
            data: xy(min),
            borderColor: 'rgba(66,165,245,0.3)',
            pointRadius: 0,
          },
          {
            label: 'max',
            data: xy(max),
            borderColor: 'rgba(66,165,245,0.3)',
            backgroundColor: 'rgba(66,165,245,0.15)',
            pointRadius: 0,
            fill: '-1',
          },
          { label: 'avg', data: avg, borderColor: '#1e88e5', backgroundColor: '#1e88e5' },
        ];
  return (
    <Line
      aria-label={label}
      role="img"
      data={{ datasets }}
      options={{
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        parsing: false,
        elements: { point: { radius: t.length > 200 ? 0 : 2 } },
        scales: {
          x: {
            type: 'linear',
            min: series.from,
            max: series.to,
            ticks: {
              callback: (value) => timeText.format(new Date(Number(value))),
              maxTicksLimit: 8,
            },
          },
        },
        plugins: {
          legend: { position: 'bottom' },
          tooltip: {
            callbacks: { title: (items) => timeText.format(new Date(items[0]?.parsed.x ?? 0)) },
          },
        },
      }}
    />
  );
}
