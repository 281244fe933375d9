"""The store floor: the only code with SQL (named functions, the writer, the
schema, its migrations and the table log)."""
