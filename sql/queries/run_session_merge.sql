-- Merge the recent part of the session index into the settled part
-- (sql/schema/010_scale.sql): every recent run settled, found through the
-- recent part, so in (backend, session_id) order, the order the settled
-- part takes them in.
UPDATE run SET recent = 0 WHERE recent <> 0;
