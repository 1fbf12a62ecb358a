-- Issue 25: the creation job's case file is written by ONE autocommit statement (casefile-worker,
-- persist-casefile.sql.ts), no longer a transaction whose first round trip locked the job's row.
-- That statement marks the job completed only while it is pending or processing: its UPDATE takes
-- the row's lock (waiting for another run of the same job that holds it) and reads the row again
-- once it has it. When the UPDATE finds nothing, the case file's creationJobId is this function's
-- answer, which is an error: the whole statement is undone, so a job that another run completed,
-- failed or aborted gets no case file from this one. The worker recognises SQLSTATE EJ409.
CREATE OR REPLACE FUNCTION "creation_job_not_claimable"(job uuid) RETURNS uuid
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  RAISE EXCEPTION 'creation job % is no longer pending or processing', job USING ERRCODE = 'EJ409';
END
$$;
