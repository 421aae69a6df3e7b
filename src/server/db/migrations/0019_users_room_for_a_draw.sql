-- A draw updates every player's row (balance, points, level, totals) in one transaction, and
-- the old versions stay until it commits, so a page can keep its rows HOT (rewritten in the page,
-- no entry added to each of the table's five indexes) only if it has room for a second version
-- of every row on it. 30% free (migration 0007) left room for a third of them; with 55% free
-- every update of a large draw is HOT (bench/RESULTS.md has the timings). The table's pages are
-- about 1.5 times as many. Pages written from now on keep the room.
ALTER TABLE "users" SET (fillfactor = 45);
