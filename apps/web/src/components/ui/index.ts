/**
 * The console's primitives, the same on every page: buttons, labelled fields, notices and the
 * states of a query, paging and search. Features build on these and live beside the routes that
 * use them (`app/.../_components/`), or in `components/<feature>/` when several routes share them.
 */
export { formatDate, formatDuration } from '@/lib/format';
export { Button } from './button';
export { Empty, ErrorNotice, Loading, Notice, QueryView } from './feedback';
export { Checkbox, Field, HiddenLabel, RequiredNote, Select, TextArea, TextInput } from './fields';
export { Pager, SearchBox, useDebounced } from './lists';
