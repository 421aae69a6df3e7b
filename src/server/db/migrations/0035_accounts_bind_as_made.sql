-- An account is bound to a break of the person it belongs to in the statement that makes it, as
-- a break and a sign-in already are: no crash between making and binding leaves it free.
CREATE TRIGGER "users_bind_person" AFTER INSERT ON "users"
	FOR EACH ROW EXECUTE FUNCTION "pluckers_bind_on_insert"();
