import { Button, Calendar, CalendarCell, CalendarGrid, Heading } from 'react-aria-components';

/**
 * The class names a month calendar is drawn with: the sites' forms and the back office each keep
 * their own look.
 */
export interface MonthCalendarClasses {
  calendar?: string | undefined;
  header: string | undefined;
  nav: string | undefined;
  heading: string | undefined;
  grid: string | undefined;
  cell: string | undefined;
}

/** A month's days to pick one from, with buttons to the month before and after. */
export function MonthCalendar({ classes }: { classes: MonthCalendarClasses }) {
  return (
    <Calendar className={classes.calendar}>
      <header className={classes.header}>
        <Button slot="previous" className={classes.nav}>
          <span aria-hidden="true">‹</span>
        </Button>
        <Heading className={classes.heading} />
        <Button slot="next" className={classes.nav}>
          <span aria-hidden="true">›</span>
        </Button>
      </header>
      <CalendarGrid className={classes.grid}>
        {(date) => <CalendarCell date={date} className={classes.cell} />}
      </CalendarGrid>
    </Calendar>
  );
}
