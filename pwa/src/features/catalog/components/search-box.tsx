import { useQuery } from '@tanstack/react-query';
import { Search, Store, Tag, Gem } from 'lucide-react';
import { useId, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { LIMITS, type ProductCategory } from '../../../../../api/contract/constants';
import type { SearchSuggestions } from '../../../../../api/contract/catalog';
import { cn } from '../../../lib/cn';
import { formatCategory } from '../../../lib/format';
import { useAdoptValueOnMount } from '../../../lib/pre-hydration';
import { productQueries } from '../api';
import { useDebouncedValue } from '../hooks/use-debounced-value';

export type Suggestion =
  | { kind: 'product'; id: number; label: string }
  | { kind: 'seller'; id: number; label: string; urlSlug: string | null; city: string }
  | { kind: 'category'; id: ProductCategory; label: string };

/** The suggestions in the order the list shows them: categories, then products, then shops. */
export function flattenSuggestions(s: SearchSuggestions | undefined): Suggestion[] {
  if (!s) return [];
  return [
    ...s.categories.map((c) => ({ kind: 'category' as const, id: c, label: formatCategory(c) })),
    ...s.products.map((p) => ({ kind: 'product' as const, id: p.id, label: p.name })),
    ...s.sellers.map((x) => ({
      kind: 'seller' as const,
      id: x.sellerId,
      label: x.shopName,
      urlSlug: x.urlSlug,
      city: x.city,
    })),
  ];
}

const ICONS = { category: Tag, product: Gem, seller: Store } as const;

/**
 * The marketplace search box: a combobox whose suggestions are fetched only while it has focus and holds more
 * than one character, 300 ms after typing stops (cached five minutes). Arrow keys move through the list, Enter
 * picks the highlighted suggestion or searches for the text, Escape closes the list.
 */
export function SearchBox({
  value,
  onSearch,
  onPick,
}: {
  /** The search in the URL; the box follows it on back and forward. */
  value: string;
  onSearch: (text: string) => void;
  onPick: (s: Suggestion) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const listId = `${id}-list`;
  const [text, setText] = useState(value);
  const [synced, setSynced] = useState(value);
  if (synced !== value) {
    setSynced(value);
    setText(value);
  }
  const [focused, setFocused] = useState(false);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  // Letters typed before the app took over stay, and their suggestions come as soon as it has.
  const inputRef = useAdoptValueOnMount<HTMLInputElement>(value, (typed, input) => {
    setText(typed);
    if (document.activeElement === input) {
      setFocused(true);
      setOpen(true);
    }
  });
  const trimmed = text.trim();
  const debounced = useDebouncedValue(trimmed, LIMITS.suggestionDebounceMs);
  const wanted = focused && debounced.length > 1;
  const suggestions = useQuery({ ...productQueries.suggestions(debounced), enabled: wanted });
  const items = flattenSuggestions(suggestions.data);
  const settled = debounced === trimmed && !suggestions.isPlaceholderData && !suggestions.isFetching;
  const showList = open && focused && trimmed.length > 1 && (items.length > 0 || settled);

  const pick = (s: Suggestion) => {
    setOpen(false);
    setActive(-1);
    if (s.kind === 'product') setText(s.label);
    onPick(s);
  };
  const submit = () => {
    setOpen(false);
    setActive(-1);
    onSearch(trimmed);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!open) setOpen(true);
      if (items.length === 0) return;
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (i + step + items.length + 1) % (items.length + 1));
      return;
    }
    if (e.key === 'Enter') {
      e.preventDefault();
      const s = showList && active >= 0 ? items[active] : undefined;
      if (s) pick(s);
      else submit();
      return;
    }
    if (e.key === 'Escape') {
      if (showList) {
        e.preventDefault();
        setOpen(false);
        setActive(-1);
      } else if (text) {
        e.preventDefault();
        setText('');
      }
    }
  };

  // Index items.length means "nothing highlighted" in the cycle above; map it back to -1.
  const activeIndex = active >= 0 && active < items.length ? active : -1;
  const optionId = (i: number) => `${id}-opt-${i}`;

  let offset = 0;
  const groups = (['category', 'product', 'seller'] as const)
    .map((kind) => {
      const list = items.filter((s) => s.kind === kind);
      const start = offset;
      offset += list.length;
      return { kind, list, start };
    })
    .filter((g) => g.list.length > 0);

  return (
    // Before the app has started the form submits itself: a search of the whole catalogue.
    <form
      role="search"
      method="get"
      action="/marketplace"
      className="relative w-full"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <label htmlFor={`${id}-input`} className="sr-only">
        {t('catalog.search.label')}
      </label>
      <Search
        aria-hidden="true"
        className="pointer-events-none absolute top-1/2 left-3 h-5 w-5 -translate-y-1/2 text-muted"
      />
      <input
        ref={inputRef}
        id={`${id}-input`}
        name="query"
        type="search"
        role="combobox"
        autoComplete="off"
        enterKeyHint="search"
        aria-autocomplete="list"
        aria-expanded={showList}
        aria-controls={listId}
        aria-activedescendant={showList && activeIndex >= 0 ? optionId(activeIndex) : undefined}
        placeholder={t('catalog.search.placeholder')}
        value={text}
        maxLength={200}
        onChange={(e) => {
          setText(e.target.value);
          // Typing means the box has the focus, also when it was tapped before the app started (its focus
          // event then came before React listened, and the letters after).
          setFocused(true);
          setOpen(true);
          setActive(-1);
        }}
        onFocus={() => {
          setFocused(true);
          setOpen(true);
        }}
        onBlur={() => {
          setFocused(false);
          setOpen(false);
          setActive(-1);
        }}
        onKeyDown={onKeyDown}
        className="block h-12 w-full rounded-lg border border-stone-300 bg-white pr-3 pl-10 text-base text-ink placeholder:text-stone-500 focus-visible:border-brand-600 focus-visible:outline-2 focus-visible:outline-brand-600/40"
      />
      <div
        id={listId}
        role="listbox"
        aria-label={t('catalog.search.suggestions')}
        hidden={!showList}
        className="absolute inset-x-0 top-full z-30 mt-1 max-h-96 overflow-y-auto rounded-lg border border-stone-200 bg-white py-1 shadow-lg"
      >
        {showList && items.length === 0 && (
          <div
            role="option"
            aria-selected="false"
            aria-disabled="true"
            className="px-4 py-3 text-sm text-muted"
          >
            {t('catalog.search.noSuggestions', { text: trimmed })}
          </div>
        )}
        {showList &&
          groups.map((g) => (
            <div key={g.kind} role="group" aria-labelledby={`${id}-${g.kind}`}>
              <div
                id={`${id}-${g.kind}`}
                role="presentation"
                className="px-4 pt-2 pb-1 text-xs font-semibold tracking-wide text-muted uppercase"
              >
                {t(`catalog.search.groups.${g.kind}`)}
              </div>
              {g.list.map((s, j) => {
                const i = g.start + j;
                const Icon = ICONS[s.kind];
                return (
                  <div
                    key={`${s.kind}-${s.id}`}
                    id={optionId(i)}
                    role="option"
                    aria-selected={i === activeIndex}
                    // Keep focus in the input: choosing with the mouse must not blur it first.
                    onMouseDown={(e) => e.preventDefault()}
                    onClick={() => pick(s)}
                    onMouseMove={() => setActive(i)}
                    className={cn(
                      'flex cursor-pointer items-center gap-3 px-4 py-2 text-sm text-ink',
                      i === activeIndex && 'bg-brand-50 text-brand-800',
                    )}
                  >
                    <Icon aria-hidden="true" className="h-4 w-4 shrink-0 text-muted" />
                    <span className="truncate first-letter:uppercase">
                      {s.kind === 'category' ? t(`catalog.categories.${s.id}`) : s.label}
                    </span>
                    {s.kind === 'seller' && s.city && (
                      <span className="ml-auto shrink-0 text-xs text-muted">{s.city}</span>
                    )}
                  </div>
                );
              })}
            </div>
          ))}
      </div>
    </form>
  );
}
