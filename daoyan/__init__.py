"""daoyan (导演): reads a Discuz! forum game for its director: votes, activity, speech, reports."""
__version__ = "0.1.0"
