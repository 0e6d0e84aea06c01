import { Plus, X } from 'lucide-react';
import { useId, useState, type KeyboardEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';

/**
 * A list of short texts (certifications, available sizes): type one, Add (or Enter), remove with its
 * button. Duplicates are ignored.
 */
export function ListEditor({
  label,
  hint,
  placeholder,
  addLabel,
  removeLabel,
  value,
  onChange,
  max,
  maxLength,
  error,
  disabled,
}: {
  label: string;
  hint: string;
  placeholder?: string;
  addLabel: string;
  removeLabel: (item: string) => string;
  value: string[];
  onChange: (next: string[]) => void;
  max: number;
  maxLength: number;
  error?: string;
  disabled?: boolean;
}) {
  const id = useId();
  const [draft, setDraft] = useState('');
  const text = draft.trim();
  const duplicate = value.some((v) => v.toLowerCase() === text.toLowerCase());
  const canAdd = text !== '' && !duplicate && value.length < max && !disabled;

  const add = () => {
    if (!canAdd) return;
    onChange([...value, text]);
    setDraft('');
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== 'Enter') return;
    // Enter adds to the list instead of submitting the whole form.
    e.preventDefault();
    add();
  };

  return (
    <div className="space-y-2">
      <Label htmlFor={id}>{label}</Label>
      <div className="flex gap-2">
        <Input
          id={id}
          value={draft}
          maxLength={maxLength}
          disabled={disabled}
          placeholder={placeholder}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
          aria-invalid={error ? true : undefined}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={onKeyDown}
        />
        <Button variant="outline" onClick={add} disabled={!canAdd}>
          <Plus aria-hidden="true" className="h-4 w-4" />
          {addLabel}
        </Button>
      </div>
      {error && (
        <p id={`${id}-error`} className="text-sm font-medium text-red-800">
          {error}
        </p>
      )}
      <p id={`${id}-hint`} className="text-xs text-muted">
        {hint}
      </p>
      {value.length > 0 && (
        <ul className="flex flex-wrap gap-2" aria-label={label}>
          {value.map((item) => (
            <li
              key={item}
              className="inline-flex items-center gap-1 rounded-full bg-gold-100 py-1 pr-1 pl-3 text-sm text-ink"
            >
              {item}
              <button
                type="button"
                disabled={disabled}
                onClick={() => onChange(value.filter((v) => v !== item))}
                aria-label={removeLabel(item)}
                className="rounded-full p-1 hover:bg-gold-400/40 focus-visible:outline-2 focus-visible:outline-brand-600"
              >
                <X aria-hidden="true" className="h-3.5 w-3.5" />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
