-- The club's league in PostgreSQL (docs/club.md): run once by the database's owner,
--   psql -v ON_ERROR_STOP=1 -d splendor_club -f schema.sql
-- and again after an update of the companion (it changes nothing that is there already).
-- The kiosks log in as roles of the group splendor_kiosk, which may add games, merge
-- names, keep the ratings (derived from the games, recomputed from them at will) and run
-- a tournament night: it may not change nor delete a game, nor the schema.

-- A database of a newer companion is refused before anything is touched.
DO $$
DECLARE
    found integer;
BEGIN
    IF to_regclass('club_schema') IS NOT NULL THEN
        EXECUTE 'SELECT max(version) FROM club_schema' INTO found;
        IF found > 1 THEN
            RAISE EXCEPTION 'this club''s database has schema %, newer than this script''s 1: run the newer companion''s schema.sql', found;
        END IF;
    END IF;
END
$$;

CREATE TABLE IF NOT EXISTS club_schema (
    version integer PRIMARY KEY,
    applied_at timestamptz NOT NULL DEFAULT now()
);

-- Every finished game of every kiosk, once: its fingerprint (companion/club/games.py) is
-- a hash of its players, rules, setup and moves, so a game pushed twice, or by two kiosks
-- (exported from one, imported at another), is one row.
CREATE TABLE IF NOT EXISTS games (
    fingerprint text PRIMARY KEY CHECK (fingerprint ~ '^[0-9a-f]{64}$'),
    arrival bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
    kiosk text NOT NULL,
    kiosk_game bigint NOT NULL,
    finished_at timestamptz NOT NULL,
    pushed_at timestamptz NOT NULL DEFAULT now(),
    state text NOT NULL CHECK (state IN ('over', 'stalled')),
    players text[] NOT NULL,          -- as typed at the table, in play order
    levels text[] NOT NULL,           -- the companion's level at a seat, NULL for a person
    ranks smallint[] NOT NULL,        -- 1 for a winner (points, then fewest cards); shared on a tie
    points smallint[] NOT NULL,
    record jsonb NOT NULL,            -- the game record (docs/game-record.md), with its journal
    review jsonb                      -- the kiosk's review of it, when it made one
);
CREATE INDEX IF NOT EXISTS games_by_finish ON games (finished_at, fingerprint);
CREATE INDEX IF NOT EXISTS games_by_player ON games USING gin (players);

-- Two spellings of one person, decided on the club: name counts as person at every kiosk.
CREATE TABLE IF NOT EXISTS names (
    name text PRIMARY KEY,
    person text NOT NULL,
    kiosk text NOT NULL,
    at timestamptz NOT NULL DEFAULT now()
);

-- OpenSkill's Plackett-Luce ratings of every person ('person') and companion level
-- ('level'), from the games over in order of their end (companion/club/ratings.py).
CREATE TABLE IF NOT EXISTS ratings (
    kind text NOT NULL CHECK (kind IN ('person', 'level')),
    who text NOT NULL,
    mu double precision NOT NULL,
    sigma double precision NOT NULL,
    games integer NOT NULL,
    PRIMARY KEY (kind, who)
);
CREATE INDEX IF NOT EXISTS ratings_by_ordinal ON ratings ((mu - 3 * sigma) DESC);
CREATE TABLE IF NOT EXISTS rating_history (
    fingerprint text NOT NULL REFERENCES games,
    finished_at timestamptz NOT NULL,
    kind text NOT NULL,
    who text NOT NULL,
    mu double precision NOT NULL,
    sigma double precision NOT NULL,
    PRIMARY KEY (fingerprint, kind, who)
);
CREATE INDEX IF NOT EXISTS rating_history_by_who ON rating_history (kind, who, finished_at);
CREATE INDEX IF NOT EXISTS rating_history_by_finish ON rating_history (finished_at, fingerprint);
-- How far the ratings go: the last game rated (by its end), the last arrival seen, and
-- the merges they were computed with (another set of merges: computed again).
CREATE TABLE IF NOT EXISTS rating_state (
    one boolean PRIMARY KEY DEFAULT true CHECK (one),
    through_at timestamptz,
    through_fingerprint text,
    seen_arrival bigint NOT NULL DEFAULT 0,
    names_hash text NOT NULL DEFAULT ''
);
INSERT INTO rating_state DEFAULT VALUES ON CONFLICT DO NOTHING;

-- A tournament night (docs/club.md, "A tournament night").
CREATE TABLE IF NOT EXISTS tournaments (
    id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name text NOT NULL,
    started_at timestamptz NOT NULL DEFAULT now(),
    ended_at timestamptz
);
CREATE UNIQUE INDEX IF NOT EXISTS one_open_tournament ON tournaments ((true)) WHERE ended_at IS NULL;
CREATE TABLE IF NOT EXISTS tournament_players (
    tournament integer NOT NULL REFERENCES tournaments,
    person text NOT NULL,
    PRIMARY KEY (tournament, person)
);
CREATE TABLE IF NOT EXISTS tournament_tables (
    tournament integer NOT NULL REFERENCES tournaments,
    round integer NOT NULL,
    table_no integer NOT NULL,
    players text[] NOT NULL,
    paired_at timestamptz NOT NULL DEFAULT now(),
    kiosk text,                       -- the kiosk that asked for this table
    game text REFERENCES games,       -- its game, once over and pushed
    PRIMARY KEY (tournament, round, table_no)
);

-- The kiosks' group: CREATE ROLE table1 LOGIN PASSWORD '...' IN ROLE splendor_kiosk;
DO $$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'splendor_kiosk') THEN
        CREATE ROLE splendor_kiosk NOLOGIN;
    END IF;
END
$$;
REVOKE ALL ON ALL TABLES IN SCHEMA public FROM splendor_kiosk;
GRANT USAGE ON SCHEMA public TO splendor_kiosk;
GRANT SELECT ON club_schema TO splendor_kiosk;
GRANT SELECT, INSERT ON games TO splendor_kiosk;
GRANT SELECT, INSERT, UPDATE, DELETE ON names TO splendor_kiosk;
GRANT SELECT, INSERT, UPDATE, DELETE ON ratings, rating_history TO splendor_kiosk;
GRANT SELECT, UPDATE ON rating_state TO splendor_kiosk;
GRANT SELECT, INSERT, UPDATE ON tournaments TO splendor_kiosk;
GRANT SELECT, INSERT, DELETE ON tournament_players TO splendor_kiosk;
GRANT SELECT, INSERT ON tournament_tables TO splendor_kiosk;
GRANT UPDATE (kiosk, game) ON tournament_tables TO splendor_kiosk;

INSERT INTO club_schema (version) VALUES (1) ON CONFLICT DO NOTHING;
