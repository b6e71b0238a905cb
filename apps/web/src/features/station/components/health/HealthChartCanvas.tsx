// Loaded on demand: packets per day as bars and uptime per day as a line, on two axes.
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';
import { Chart as ChartView } from 'react-chartjs-2';
import type { StationHealthDay } from '@tinygs/contracts';

Chart.register(
  BarController,
  BarElement,
  CategoryScale,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Legend,
  Tooltip,
);

export default function HealthChartCanvas({ daily }: { daily: StationHealthDay[] }) {
  return (
    <ChartView
      type="bar"
      aria-label="Packets and uptime per day"
      role="img"
      data={{
        labels: daily.map((d) => d.day.slice(5)),
        datasets: [
          {
            type: 'line',
            label: 'Uptime %',
            data: daily.map((d) => d.uptimePercent),
            borderColor: '#66bb6a',
            backgroundColor: '#66bb6a',
            yAxisID: 'uptime',
            spanGaps: false,
          },
          {
            type: 'bar',
            label: 'Packets',
            data: daily.map((d) => d.packets),
            backgroundColor: '#42a5f5',
            yAxisID: 'packets',
          },
        ],
      }}
      options={{
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        scales: {
          packets: { position: 'left', beginAtZero: true, ticks: { precision: 0 } },
          uptime: { position: 'right', min: 0, max: 100, grid: { drawOnChartArea: false } },
        },
        plugins: { legend: { position: 'bottom' } },
      }}
    />
  );
}
