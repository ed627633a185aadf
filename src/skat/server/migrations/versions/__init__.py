"""The revisions, oldest first: 0001 is the schema of the servers before migrations existed."""
