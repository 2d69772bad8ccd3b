/**
 * The chooser at the top of both Statistics screens: which window the figures below are for — a year of the
 * reader's own reading, or the server's last 12 months or a year on Admin → Reading.
 */
import { t } from '../i18n';

export interface WindowOption {
  value: string;
  label: string;
}

export function WindowChooser({
  label = t('stats.year'),
  value,
  options,
  onChoose,
  marker,
}: {
  label?: string;
  value: string;
  options: WindowOption[];
  onChoose: (value: string) => void;
  /** Names the select for the tests: `data-year-select`. */
  marker?: string;
}) {
  return (
    <div class="toolbar">
      <label class="stats-window">
        <span>{label}</span>
        <select
          class="select"
          value={value}
          onChange={(event) => onChoose((event.currentTarget as HTMLSelectElement).value)}
          {...(marker ? { [`data-${marker}`]: true } : {})}
        >
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
