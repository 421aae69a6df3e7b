-- A draw tells every player the result: a 1,000,000-entry game inserts 1,000,000 notices in one
-- statement, and the foreign key to users checked each of them with a query of its own (a
-- trigger per row, more than half of the insert's time). It guarded nothing: users
-- are never deleted (closing an account sets deleted_at) and every notice is written for a user
-- id just read from users, game_entries or a session. Other tables keep their keys.
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_user_id_users_id_fk";
